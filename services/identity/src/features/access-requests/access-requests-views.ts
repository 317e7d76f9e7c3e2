import type { NamespaceViewContext } from '../access/namespace-views.ts';
import { basicUserView } from '../users/user-views.ts';
import type { AccessRequestWithUser } from './access-requests-service.ts';

/** A pending request: the requester's summary with when they asked. */
export function accessRequestView({ request, user }: AccessRequestWithUser, context: NamespaceViewContext) {
  return { ...basicUserView(user, context), created_at: request.createdAt, requested_at: request.requestedAt ?? null };
}

/** An approved request: `access_level` replaces `requested_at`. */
export function approvedRequestView({ request, user }: AccessRequestWithUser, context: NamespaceViewContext) {
  return {
    ...basicUserView(user, context),
    created_at: request.createdAt,
    access_level: request.accessLevel,
    expires_at: request.expiresAt ?? null,
  };
}
