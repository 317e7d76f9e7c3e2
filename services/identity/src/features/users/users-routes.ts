import { Router } from 'express';
import { requireAdmin, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage } from '@platform/http';
import { NotFoundError } from '@platform/errors';
import type { CustomAttributesService } from '../custom-attributes/custom-attributes-service.ts';
import type { Identity } from './user.entity.ts';
import type { UsersService } from './users-service.ts';
import {
  adminSingleUserView,
  adminUserView,
  basicUserView,
  currentUserView,
  publicUserView,
  withCustomAttributes,
  type ViewContext,
} from './user-views.ts';
import {
  createUserParams,
  deleteIdentityParams,
  deleteUserParams,
  listUsersParams,
  singleUserParams,
  updateUserParams,
  userIdParams,
} from './users.schemas.ts';

export function usersRoutes(options: { users: UsersService; customAttributes: CustomAttributesService; views: ViewContext }): Router {
  const { users, customAttributes, views } = options;
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
    '/api/v4/users',
    asyncHandler(async (req, res) => {
      const caller = callerOf(req);
      const input = parseParams(listUsersParams, req.query);
      const page = pageParams(input);
      const { items, total } = await users.list(caller, input, { offset: page.offset, limit: page.perPage });
      const isAdmin = caller.kind === 'user' && caller.isAdmin;
      const ids = items.map((user) => user.id);
      const identities = isAdmin ? await users.identitiesOf(ids) : new Map<number, Identity[]>();
      // Custom attributes are for administrators' eyes only, as in GitLab.
      const attributes = isAdmin && input.with_custom_attributes ? await customAttributes.listFor(ids) : undefined;
      const bodies = items.map((user) => {
        const view = isAdmin ? adminUserView(user, identities.get(user.id) ?? [], views) : basicUserView(user, views);
        return attributes ? withCustomAttributes(view, attributes.get(user.id) ?? []) : view;
      });
      sendPage(req, res, { page, total, items: bodies });
    }),
  );

  router.get(
    '/api/v4/users/:id',
    asyncHandler(async (req, res) => {
      const caller = callerOf(req);
      const input = parseParams(singleUserParams, requestParams(req));
      const { user, identities } = await users.get(input.id);
      // Anonymous callers see active users only.
      if (caller.kind === 'anonymous' && user.state !== 'active') throw new NotFoundError('User');
      const isAdmin = caller.kind === 'user' && caller.isAdmin;
      const view = isAdmin ? adminSingleUserView(user, identities, views) : publicUserView(user, views);
      if (!(isAdmin && input.with_custom_attributes)) return void res.json(view);
      const attributes = await customAttributes.listFor([user.id]);
      res.json(withCustomAttributes(view, attributes.get(user.id) ?? []));
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

  router.put(
    '/api/v4/users/:id',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const input = parseParams(updateUserParams, requestParams(req));
      const { user, identities } = await users.update(caller, input);
      res.json(adminSingleUserView(user, identities, views));
    }),
  );

  router.delete(
    '/api/v4/users/:id',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const input = parseParams(deleteUserParams, requestParams(req));
      await users.delete(caller, { id: input.id, hardDelete: input.hard_delete === true });
      res.status(204).end();
    }),
  );

  // GitLab answers 201 with `true` when the state changed; `null` (block) or `false` (unblock) when it did not.
  router.post(
    '/api/v4/users/:id/block',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const { id } = parseParams(userIdParams, req.params);
      res.status(201).json((await users.block(caller, id)) ? true : null);
    }),
  );

  router.post(
    '/api/v4/users/:id/unblock',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const { id } = parseParams(userIdParams, req.params);
      res.status(201).json(await users.unblock(caller, id));
    }),
  );

  router.delete(
    '/api/v4/users/:id/identities/:provider',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const input = parseParams(deleteIdentityParams, req.params);
      await users.removeIdentity(caller, input);
      res.status(204).end();
    }),
  );

  return router;
}
