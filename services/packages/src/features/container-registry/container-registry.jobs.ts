import type { EventActor } from '@platform/events';
import { defineJob } from '@platform/service';
import type { CleanupRules } from './cleanup-rules.ts';

/** A bulk tag deletion asked for through the API, run in the background as GitLab runs it. */
export const cleanupTagsJob = defineJob<{ repositoryId: number; rules: CleanupRules; actor: EventActor | null }>(
  'packages.container_repository.cleanup_tags',
);

/**
 * A repository's deletion: its tags in the registry, then the repository. Retried for about a day
 * (backoff capped at five minutes) rather than a few times: while the registry is down, the
 * deletion waits for it instead of leaving a deleted project's images behind.
 */
export const deleteRepositoryJob = defineJob<{ repositoryId: number; actor: EventActor | null }>('packages.container_repository.delete', {
  maxAttempts: 300,
});
