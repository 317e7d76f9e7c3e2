import type { UserSummary } from '../core/user-directory.ts';
import type { ResourceStateEvent } from './resource-state-event.entity.ts';

/** A resource state event as GitLab shows it. */
export function resourceStateEventView(event: ResourceStateEvent, users: Map<number, UserSummary>) {
  return {
    id: event.id,
    user: users.get(event.userId) ?? null,
    created_at: event.createdAt.toISOString(),
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    state: event.state,
  };
}
