import type { ActivityEvent } from './activity-event.entity.ts';
import type { ActivityUser } from './activity-user.entity.ts';

/** GitLab's display verb for an event (Event#action_name). */
export function actionName(event: Pick<ActivityEvent, 'action' | 'targetType' | 'pushData'>): string {
  switch (event.action) {
    case 'pushed':
      if (event.pushData?.action === 'created') return 'pushed new';
      if (event.pushData?.action === 'removed') return 'deleted';
      return 'pushed to';
    case 'closed':
      return 'closed';
    case 'merged':
      return 'accepted';
    case 'joined':
      return 'joined';
    case 'left':
      return 'left';
    case 'expired':
      return 'removed due to membership expiration from';
    case 'destroyed':
      return 'destroyed';
    case 'commented':
      return 'commented on';
    case 'approved':
      return 'approved';
    case 'created':
      // A project's creation has no target; anything else created was opened.
      return event.targetType === null ? 'created' : 'opened';
    default:
      return 'opened';
  }
}

/** An event as GitLab's API shows it; `author` is the user as audit knows them now, else as the event named them. */
export function activityEventView(event: ActivityEvent, options: { author: ActivityUser | undefined; externalUrl: string }) {
  const username = options.author?.username ?? event.authorUsername;
  const state = options.author?.state ?? 'active';
  const author = {
    id: event.authorId,
    username,
    name: options.author?.name ?? event.authorName,
    state,
    locked: false,
    avatar_url: null,
    web_url: `${options.externalUrl.replace(/\/$/, '')}/${username}`,
  };
  return {
    id: event.id,
    title: null,
    project_id: event.projectId,
    action_name: actionName(event),
    target_id: event.targetId,
    target_iid: event.targetIid,
    target_type: event.targetType,
    author_id: event.authorId,
    target_title: event.targetTitle,
    created_at: event.createdAt.toISOString(),
    author,
    imported: false,
    imported_from: 'none',
    ...(event.pushData ? { push_data: event.pushData } : {}),
    ...(event.note ? { note: { ...event.note, attachment: null, author } } : {}),
    author_username: username,
    data: null,
  };
}
