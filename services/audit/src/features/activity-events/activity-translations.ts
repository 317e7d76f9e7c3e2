import { ACCESS_LEVEL, identityEvents } from '@platform/identity-client';
import { reviewEvents } from '@platform/review-client';
import { onEvent, type EventEnvelope, type EventHandler } from '@platform/events';
import { MembershipSourceType, type MemberSnapshot } from '@platform/proto/identity/v1/namespace-events';
import type { IssueChanged, MergeRequestChanged, MilestoneChanged, NoteChanged, RepositoryPushed } from '@platform/proto/review/v1/events';
import type { Action, CommentData, PushData } from './activity-event.entity.ts';
import type { NewActivityEvent } from './activity-events-store.ts';

/** Turns one domain event type into the activity event it stands for, or none. */
export type ActivityTranslation = EventHandler<NewActivityEvent | undefined>;

const ZERO_SHA = '0000000000000000000000000000000000000000';
/** GitLab keeps the first 70 characters of a push's newest commit title. */
const COMMIT_TITLE_LENGTH = 70;

interface Author {
  id: number;
  username: string;
  name: string;
}

function activityEvent(
  event: EventEnvelope,
  options: {
    author: Author;
    projectId: number;
    action: Action;
    target?: { type: string; id: number; iid?: number; title: string };
    pushData?: PushData;
    note?: CommentData;
  },
): NewActivityEvent {
  return {
    projectId: options.projectId,
    authorId: options.author.id,
    authorUsername: options.author.username,
    authorName: options.author.name,
    action: options.action,
    targetType: options.target?.type ?? null,
    targetId: options.target?.id ?? null,
    targetIid: options.target?.iid ?? null,
    targetTitle: options.target?.title ?? null,
    pushData: options.pushData ?? null,
    note: options.note ?? null,
    sourceEventId: event.id,
    createdAt: new Date(event.occurredAt),
  };
}

/** A project membership's own user joined or left; group memberships have no activity, as in GitLab. */
function membershipEvent(
  event: EventEnvelope,
  member: MemberSnapshot | undefined,
  action: 'joined' | 'left',
): NewActivityEvent | undefined {
  if (!member || member.sourceType !== MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_PROJECT) return undefined;
  // GitLab records no join for a project's owner (its creator).
  if (action === 'joined' && member.accessLevel >= ACCESS_LEVEL.OWNER) return undefined;
  return activityEvent(event, {
    author: { id: member.userId, username: member.username, name: member.userName },
    projectId: member.sourceId,
    action,
  });
}

/** `push_data` of one ref's change, as GitLab's PushEventPayload has it. */
export function pushDataOf(push: RepositoryPushed): PushData {
  const created = push.before === ZERO_SHA;
  const removed = push.after === ZERO_SHA;
  const isTag = push.ref.startsWith('refs/tags/');
  const [newest] = push.commitTitles;
  return {
    commit_count: push.commitCount,
    action: created ? 'created' : removed ? 'removed' : 'pushed',
    ref_type: isTag ? 'tag' : 'branch',
    commit_from: created ? null : push.before,
    commit_to: removed ? null : push.after,
    ref: push.ref.replace(/^refs\/(heads|tags)\//, ''),
    commit_title: newest === undefined ? null : newest.slice(0, COMMIT_TITLE_LENGTH),
    ref_count: null,
  };
}

function mergeRequestEvent(action: Action) {
  return (data: MergeRequestChanged, event: EventEnvelope) =>
    event.actor
      ? activityEvent(event, {
          author: event.actor,
          projectId: data.projectId,
          action,
          target: { type: 'MergeRequest', id: data.mergeRequestId, iid: data.iid, title: data.title },
        })
      : undefined;
}

/** A comment: GitLab's `commented on` a Note, titled by what it is on. */
function commentEvent(data: NoteChanged, event: EventEnvelope): NewActivityEvent | undefined {
  if (!event.actor || data.system) return undefined;
  return activityEvent(event, {
    author: event.actor,
    projectId: data.projectId,
    action: 'commented',
    // A note has no iid of its own: GitLab shows its id there too.
    target: { type: 'Note', id: data.noteId, iid: data.noteId, title: data.noteableTitle },
    note: {
      id: data.noteId,
      body: data.body,
      created_at: data.createdAt,
      system: data.system,
      noteable_id: data.noteableId,
      noteable_type: data.noteableType,
      noteable_iid: data.noteableIid,
    },
  });
}

function issueEvent(action: Action) {
  return (data: IssueChanged, event: EventEnvelope) =>
    event.actor
      ? activityEvent(event, {
          author: event.actor,
          projectId: data.projectId,
          action,
          target: { type: 'Issue', id: data.issueId, iid: data.iid, title: data.title },
        })
      : undefined;
}

/** A project milestone's change; a group milestone's (project 0, keyed by its group) is no project's activity. */
function milestoneEvent(action: Action) {
  return (data: MilestoneChanged, event: EventEnvelope) =>
    event.actor && data.projectId !== 0
      ? activityEvent(event, {
          author: event.actor,
          projectId: data.projectId,
          action,
          target: { type: 'Milestone', id: data.milestoneId, iid: data.iid, title: data.title },
        })
      : undefined;
}

/**
 * The domain events that are activity in GitLab's sense: a project created, a user joining or
 * leaving a project, pushes, merge requests opened, closed, reopened and merged, comments, issues opened,
 * closed and reopened, and project milestones created, closed, reopened and destroyed. Changes made
 * by the system (no actor) are not anybody's activity. Package events and container registry
 * tag pushes and deletions have none, as in GitLab: its events (`GET /events`) have no target type
 * for them and it records no contribution for them; they are audit events only.
 */
export const activityTranslations: ActivityTranslation[] = [
  onEvent(identityEvents.projectCreated, (data, event) =>
    data.project && event.actor ? activityEvent(event, { author: event.actor, projectId: data.project.id, action: 'created' }) : undefined,
  ),
  onEvent(identityEvents.memberAdded, (data, event) => membershipEvent(event, data.member, 'joined')),
  onEvent(identityEvents.accessRequestApproved, (data, event) => membershipEvent(event, data.member, 'joined')),
  onEvent(identityEvents.memberRemoved, (data, event) => membershipEvent(event, data.member, 'left')),
  onEvent(reviewEvents.repositoryPushed, (data, event) =>
    event.actor
      ? activityEvent(event, { author: event.actor, projectId: data.projectId, action: 'pushed', pushData: pushDataOf(data) })
      : undefined,
  ),
  onEvent(reviewEvents.mergeRequestCreated, mergeRequestEvent('created')),
  onEvent(reviewEvents.mergeRequestClosed, mergeRequestEvent('closed')),
  onEvent(reviewEvents.mergeRequestReopened, mergeRequestEvent('reopened')),
  onEvent(reviewEvents.mergeRequestMerged, mergeRequestEvent('merged')),
  onEvent(reviewEvents.noteCreated, commentEvent),
  onEvent(reviewEvents.issueCreated, issueEvent('created')),
  onEvent(reviewEvents.issueClosed, issueEvent('closed')),
  onEvent(reviewEvents.issueReopened, issueEvent('reopened')),
  onEvent(reviewEvents.milestoneCreated, milestoneEvent('created')),
  onEvent(reviewEvents.milestoneClosed, milestoneEvent('closed')),
  onEvent(reviewEvents.milestoneReopened, milestoneEvent('reopened')),
  onEvent(reviewEvents.milestoneDeleted, milestoneEvent('destroyed')),
];
