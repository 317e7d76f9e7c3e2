import { Router } from 'express';
import { requireAdmin, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, parseParams, requestParams } from '@platform/http';
import type { UsersService } from './users-service.ts';
import { adminSingleUserView, currentUserView, publicUserView, type ViewContext } from './user-views.ts';
import { createUserParams, userIdParams } from './users.schemas.ts';

export function usersRoutes(options: { users: UsersService; views: ViewContext }): Router {
  const { users, views } = options;
  const router = Router();

  router.get(
    '/api/v4/user',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { user, identities } = await users.get(caller.userId);
      res.json(currentUserView(user, identities, views));
    }),
  );

  router.get(
    '/api/v4/users/:id',
    asyncHandler(async (req, res) => {
      const caller = callerOf(req);
      const { id } = parseParams(userIdParams, req.params);
      const { user, identities } = await users.get(id);
      const isAdmin = caller.kind === 'user' && caller.isAdmin;
      res.json(isAdmin ? adminSingleUserView(user, identities, views) : publicUserView(user, views));
    }),
  );

  router.post(
    '/api/v4/users',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const input = parseParams(createUserParams, requestParams(req));
      const { user, identities } = await users.create(caller, input);
      res.status(201).json(adminSingleUserView(user, identities, views));
    }),
  );

  return router;
}
