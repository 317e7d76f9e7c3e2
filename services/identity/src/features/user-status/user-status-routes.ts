import { Router } from 'express';
import { requireUser } from '@platform/auth';
import { asyncHandler, callerOf, parseParams, requestParams } from '@platform/http';
import { renderMarkdown } from '../../markdown.ts';
import type { UsersService } from '../users/users-service.ts';
import type { UserStatus } from './user-status.entity.ts';
import type { UserStatusService } from './user-status-service.ts';
import { setStatusParams, statusOwnerParams } from './user-status.schemas.ts';

/** GitLab's user status; a user without one shows every field empty. */
export function userStatusView(status: UserStatus | null) {
  return {
    emoji: status?.emoji ?? null,
    availability: status?.availability ?? null,
    message: status?.message ?? null,
    // Rendered with raw HTML escaped, so the result is safe to embed.
    message_html: renderMarkdown(status?.message ?? ''),
    clear_status_at: status?.clearStatusAt ?? null,
  };
}

export function userStatusRoutes(options: { statuses: UserStatusService; users: UsersService }): Router {
  const { statuses, users } = options;
  const router = Router();

  router.get(
    '/api/v4/user/status',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      res.json(userStatusView(await statuses.get(await users.find(caller.userId))));
    }),
  );

  router.put(
    '/api/v4/user/status',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const input = parseParams(setStatusParams, requestParams(req));
      res.json(userStatusView(await statuses.set(await users.find(caller.userId), input)));
    }),
  );

  // Anybody, signed in or not, may read a user's status.
  router.get(
    '/api/v4/users/:user_id/status',
    asyncHandler(async (req, res) => {
      const { user_id } = parseParams(statusOwnerParams, req.params);
      res.json(userStatusView(await statuses.get(await users.find(user_id))));
    }),
  );

  return router;
}
