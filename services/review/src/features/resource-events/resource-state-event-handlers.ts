/**
 * Review's own merge request and issue events, as they concern their history: each close, reopen
 * and merge becomes a resource state event and its system note, once per event (the consumer
 * claims each event id).
 */
import { onEvent, type EventActor, type EventEnvelope, type EventHandler } from '@platform/events';
import type { IssueChanged, MergeRequestChanged } from '@platform/proto/review/v1/events';
import { reviewEvents } from '@platform/review-client';
import type { Noteable } from '../notes/noteable.ts';
import type { ResourceState, ResourceStateEventsService } from './resource-state-events-service.ts';

function mergeRequestOf(data: MergeRequestChanged): Noteable & { id: number } {
  return {
    type: 'MergeRequest',
    projectId: data.projectId,
    id: data.mergeRequestId,
    iid: data.iid,
    commitId: null,
    title: data.title,
    locked: false,
    authorId: data.authorId,
  };
}

function issueOf(data: IssueChanged): Noteable & { id: number } {
  return {
    type: 'Issue',
    projectId: data.projectId,
    id: data.issueId,
    iid: data.iid,
    commitId: null,
    title: data.title,
    locked: false,
    authorId: data.authorId,
  };
}

export function resourceStateEventHandlers(events: ResourceStateEventsService): EventHandler[] {
  const record = (noteable: Noteable & { id: number }, state: ResourceState, envelope: EventEnvelope) => {
    // A change nobody made (none so far) has no user to show.
    const actor: EventActor | null = envelope.actor;
    if (!actor) return Promise.resolve();
    return events.record({ noteable, state, actor, at: new Date(envelope.occurredAt) });
  };
  return [
    onEvent(reviewEvents.mergeRequestClosed, (data, envelope) => record(mergeRequestOf(data), 'closed', envelope)),
    onEvent(reviewEvents.mergeRequestReopened, (data, envelope) => record(mergeRequestOf(data), 'reopened', envelope)),
    onEvent(reviewEvents.mergeRequestMerged, (data, envelope) => record(mergeRequestOf(data), 'merged', envelope)),
    onEvent(reviewEvents.issueClosed, (data, envelope) => record(issueOf(data), 'closed', envelope)),
    onEvent(reviewEvents.issueReopened, (data, envelope) => record(issueOf(data), 'reopened', envelope)),
  ];
}
