/** Identity's project events, as they concern merge requests from forks: a fork that leaves its network closes them. */
import { onEvent, type EventHandler } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import type { MergeRequestsService } from './merge-requests-service.ts';

export function forkEventHandlers(mergeRequests: Pick<MergeRequestsService, 'closeFromFork'>): EventHandler[] {
  return [
    onEvent(identityEvents.projectUpdated, async ({ project, changes }, envelope) => {
      const unlinked = changes.some((change) => change.attribute === 'forked_from_project_id' && change.to === '');
      if (project && unlinked) await mergeRequests.closeFromFork(project.id, envelope.actor);
    }),
    onEvent(identityEvents.projectDeleted, async ({ project }, envelope) => {
      if (project) await mergeRequests.closeFromFork(project.id, envelope.actor);
    }),
  ];
}
