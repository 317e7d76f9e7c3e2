import type { NamespaceViewContext } from '../access/namespace-views.ts';
import { basicUserView } from '../users/user-views.ts';
import type { MemberWithUser } from './members-service.ts';

/** GitLab's member entity: the user's summary with their access in the group or project. */
export function memberView(entry: MemberWithUser, context: NamespaceViewContext) {
  return {
    ...basicUserView(entry.user, context),
    access_level: entry.accessLevel,
    created_at: entry.member.createdAt,
    ...(entry.createdBy ? { created_by: basicUserView(entry.createdBy, context) } : {}),
    expires_at: entry.member.expiresAt ?? null,
    membership_state: 'active',
  };
}
