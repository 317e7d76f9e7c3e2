/**
 * Identity's project events, as they concern merge requests from forks: a fork that leaves its
 * network closes them, as GitLab's close service does (aborting a merge set to happen when the
 * pipeline succeeds).
 */
import { onEvent, type EventActor, type EventHandler } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import type { AutoMergeService } from './auto-merge-service.ts';
import type { MergeRequestsService } from './merge-requests-service.ts';

export function forkEventHandlers(deps: {
  mergeRequests: Pick<MergeRequestsService, 'closeFromFork'>;
  autoMerges: Pick<AutoMergeService, 'abort'>;
}): EventHandler[] {
  const closeFromFork = (forkProjectId: number, actor: EventActor | null) =>
    deps.mergeRequests.closeFromFork({
      forkProjectId,
      actor,
      whenClosed: (mergeRequest) => deps.autoMerges.abort({ mergeRequest, actor, reason: 'merge request was closed' }),
    });
  return [
    onEvent(identityEvents.projectUpdated, async ({ project, changes }, envelope) => {
      const unlinked = changes.some((change) => change.attribute === 'forked_from_project_id' && change.to === '');
      if (project && unlinked) await closeFromFork(project.id, envelope.actor);
    }),
    onEvent(identityEvents.projectDeleted, async ({ project }, envelope) => {
      if (project) await closeFromFork(project.id, envelope.actor);
    }),
  ];
}
