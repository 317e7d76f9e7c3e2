import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventActor, EventHandler } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { ProjectSnapshot } from '@platform/proto/identity/v1/namespace-events';
import { forkEventHandlers } from './fork-events.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import type { MergeRequestsService } from './merge-requests-service.ts';

const owner: EventActor = { id: 9, username: 'owner', name: 'Owner' };

/** The fork's one open merge request into its upstream, closed by the handlers; the aborts they ask for. */
function handlers() {
  const aborted: Array<{ iid: number; reason: string; actor: EventActor | null }> = [];
  const closed: number[] = [];
  const mergeRequests: Pick<MergeRequestsService, 'closeFromFork'> = {
    closeFromFork: async ({ forkProjectId, whenClosed }) => {
      closed.push(forkProjectId);
      await whenClosed({ id: 1, iid: 4, projectId: 2, sourceProjectId: forkProjectId } as MergeRequest);
    },
  };
  const autoMerges = {
    abort: async (options: { mergeRequest: MergeRequest; actor: EventActor | null; reason: string }) => {
      aborted.push({ iid: options.mergeRequest.iid, reason: options.reason, actor: options.actor });
    },
  };
  return { list: forkEventHandlers({ mergeRequests, autoMerges }), aborted, closed };
}

const deliver = (handler: EventHandler | undefined, event: { type: string; aggregateId: string | number; data: Record<string, unknown> }) =>
  handler?.handle({
    id: randomUUID(),
    type: event.type,
    occurredAt: new Date().toISOString(),
    aggregateId: String(event.aggregateId),
    actor: owner,
    data: event.data,
    traceContext: {},
  });

describe('a fork leaving its network', () => {
  it("closes its merge requests into other projects, aborting their automatic merges as GitLab's close service does", async () => {
    const { list, aborted, closed } = handlers();
    const deleted = identityEvents.projectDeleted.event({ aggregateId: 5, data: { project: ProjectSnapshot.fromPartial({ id: 5 }) } });
    await deliver(
      list.find((handler) => handler.type === deleted.type),
      deleted,
    );
    expect(closed).toEqual([5]);
    expect(aborted).toEqual([{ iid: 4, reason: 'merge request was closed', actor: owner }]);
  });
});
