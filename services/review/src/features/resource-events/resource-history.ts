import type { IssuableChange, IssuableHistory } from '../core/issuable-history.ts';
import type { Noteable } from '../notes/noteable.ts';
import type { NotesService } from '../notes/notes-service.ts';
import type { ResourceLabelEventsService } from './resource-label-events-service.ts';
import type { ResourceMilestoneEventsService } from './resource-milestone-events-service.ts';
import type { ResourceStateEventsService } from './resource-state-events-service.ts';
import { titleChangeNote } from './title-change-note.ts';

function noteableOf(change: IssuableChange): Noteable & { id: number } {
  const { issuable } = change;
  return {
    type: change.type,
    projectId: issuable.projectId,
    id: issuable.id,
    iid: issuable.iid,
    commitId: null,
    title: issuable.title,
    locked: false,
    authorId: issuable.authorId,
  };
}

/**
 * The history of merge requests and issues, written with each change as GitLab writes it: a
 * close, reopen or merge is a resource state event and its system note; a milestone set or taken
 * away a resource milestone event, each label added or removed a resource label event (both told
 * apart from what the history already holds, so a change that moved neither records nothing); a
 * new title or description GitLab's system note, and what it mentions anew a cross-reference note on the mentioned.
 */
export function resourceHistory(deps: {
  stateEvents: ResourceStateEventsService;
  milestoneEvents: ResourceMilestoneEventsService;
  labelEvents: ResourceLabelEventsService;
  notes: Pick<NotesService, 'recordSystemNote' | 'recordCrossReferences'>;
}): IssuableHistory {
  return async (change) => {
    const { issuable, actor, at } = change;
    const noteable = noteableOf(change);
    if (change.transition) await deps.stateEvents.record({ noteable, state: change.transition, actor, at });
    await deps.milestoneEvents.observe({ noteable, milestoneId: issuable.milestoneId ?? null, state: issuable.state, actor, at });
    await deps.labelEvents.observe({ noteable, labels: issuable.labels, actor, at });
    if (change.previousTitle !== undefined) {
      await deps.notes.recordSystemNote({ noteable, actor, body: titleChangeNote(change.previousTitle, issuable.title) });
    }
    if (change.descriptionChanged) await deps.notes.recordSystemNote({ noteable, actor, body: 'changed the description' });
    if (change.mentions) await deps.notes.recordCrossReferences({ mentioner: noteable, ...change.mentions });
  };
}
