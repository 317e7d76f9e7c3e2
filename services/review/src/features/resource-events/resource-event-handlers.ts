/**
 * Review's own merge request and issue events, as they concern their history, once per event (the
 * consumer claims each event id): each close, reopen and merge becomes a resource state event and
 * its system note; each change of milestone a resource milestone event, each label added or
 * removed a resource label event; an update of the title or the description GitLab's system note.
 */
import { onEvent, type EventDefinition, type EventEnvelope, type EventHandler } from '@platform/events';
import type { IssueChanged, MergeRequestChanged } from '@platform/proto/review/v1/events';
import { reviewEvents } from '@platform/review-client';
import type { Noteable } from '../notes/noteable.ts';
import type { NotesService } from '../notes/notes-service.ts';
import type { ResourceLabelEventsService } from './resource-label-events-service.ts';
import type { ResourceMilestoneEventsService } from './resource-milestone-events-service.ts';
import type { ResourceState, ResourceStateEventsService } from './resource-state-events-service.ts';
import { titleChangeNote } from './title-change-note.ts';

type Resource = Noteable & { id: number };

function mergeRequestOf(data: MergeRequestChanged): Resource {
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

function issueOf(data: IssueChanged): Resource {
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

export function resourceEventHandlers(deps: {
  states: ResourceStateEventsService;
  milestones: ResourceMilestoneEventsService;
  labels: ResourceLabelEventsService;
  notes: Pick<NotesService, 'recordSystemNote'>;
}): EventHandler[] {
  const handler = <Data extends MergeRequestChanged | IssueChanged>(
    definition: EventDefinition<Data>,
    resourceOf: (data: Data) => Resource,
    state?: ResourceState,
  ) =>
    onEvent(definition, async (data: Data, envelope: EventEnvelope) => {
      // A change nobody made has no user to show.
      const actor = envelope.actor;
      if (!actor) return;
      const resource = resourceOf(data);
      const at = new Date(envelope.occurredAt);
      if (state) await deps.states.record({ noteable: resource, state, actor, at });
      await deps.milestones.observe({ noteable: resource, milestoneId: data.milestoneId || null, state: data.state, actor, at });
      await deps.labels.observe({ noteable: resource, labels: data.labels, actor, at });
      const edits = [
        ...(data.previousTitle !== undefined ? [titleChangeNote(data.previousTitle, data.title)] : []),
        ...(data.descriptionChanged ? ['changed the description'] : []),
      ];
      for (const body of edits) await deps.notes.recordSystemNote({ noteable: resource, authorId: actor.id, actor, body });
    });
  return [
    handler(reviewEvents.mergeRequestCreated, mergeRequestOf),
    handler(reviewEvents.mergeRequestUpdated, mergeRequestOf),
    handler(reviewEvents.mergeRequestClosed, mergeRequestOf, 'closed'),
    handler(reviewEvents.mergeRequestReopened, mergeRequestOf, 'reopened'),
    handler(reviewEvents.mergeRequestMerged, mergeRequestOf, 'merged'),
    handler(reviewEvents.issueCreated, issueOf),
    handler(reviewEvents.issueUpdated, issueOf),
    handler(reviewEvents.issueClosed, issueOf, 'closed'),
    handler(reviewEvents.issueReopened, issueOf, 'reopened'),
  ];
}
