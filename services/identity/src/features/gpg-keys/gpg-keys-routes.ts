import { Router } from 'express';
import { requireAdmin, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage } from '@platform/http';
import type { UsersService } from '../users/users-service.ts';
import type { GpgKey } from './gpg-key.entity.ts';
import type { GpgKeysService } from './gpg-keys-service.ts';
import {
  addGpgKeyParams,
  addUserGpgKeyParams,
  ownGpgKeyParams,
  ownGpgKeysParams,
  userGpgKeyParams,
  userGpgKeysParams,
} from './gpg-keys.schemas.ts';

export function gpgKeyView(key: GpgKey) {
  return { id: key.id, key: key.key, created_at: key.createdAt };
}

/** GitLab's GPG key endpoints, for the current user (`/user/gpg_keys`) and any user (`/users/:id/gpg_keys`). */
export function gpgKeysRoutes(options: { gpgKeys: GpgKeysService; users: UsersService }): Router {
  const { gpgKeys, users } = options;
  const router = Router();

  router.get(
    '/api/v4/user/gpg_keys',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const page = pageParams(parseParams(ownGpgKeysParams, req.query));
      const { items, total } = await gpgKeys.list(await users.find(caller.userId), { offset: page.offset, limit: page.perPage });
      sendPage(req, res, { page, total, items: items.map(gpgKeyView) });
    }),
  );

  router.get(
    '/api/v4/user/gpg_keys/:key_id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { key_id } = parseParams(ownGpgKeyParams, req.params);
      res.json(gpgKeyView(await gpgKeys.get(await users.find(caller.userId), key_id)));
    }),
  );

  router.post(
    '/api/v4/user/gpg_keys',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { key } = parseParams(addGpgKeyParams, requestParams(req));
      res.status(201).json(gpgKeyView(await gpgKeys.add(caller, await users.find(caller.userId), key)));
    }),
  );

  router.delete(
    '/api/v4/user/gpg_keys/:key_id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { key_id } = parseParams(ownGpgKeyParams, req.params);
      await gpgKeys.remove(caller, await users.find(caller.userId), key_id);
      res.status(204).end();
    }),
  );

  router.get(
    '/api/v4/users/:user_id/gpg_keys',
    asyncHandler(async (req, res) => {
      const input = parseParams(userGpgKeysParams, requestParams(req));
      const page = pageParams(input);
      const { items, total } = await gpgKeys.list(await users.find(input.user_id), { offset: page.offset, limit: page.perPage });
      sendPage(req, res, { page, total, items: items.map(gpgKeyView) });
    }),
  );

  router.get(
    '/api/v4/users/:user_id/gpg_keys/:key_id',
    asyncHandler(async (req, res) => {
      const { user_id, key_id } = parseParams(userGpgKeyParams, req.params);
      res.json(gpgKeyView(await gpgKeys.get(await users.find(user_id), key_id)));
    }),
  );

  router.post(
    '/api/v4/users/:user_id/gpg_keys',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const { user_id, key } = parseParams(addUserGpgKeyParams, requestParams(req));
      res.status(201).json(gpgKeyView(await gpgKeys.add(caller, await users.find(user_id), key)));
    }),
  );

  router.delete(
    '/api/v4/users/:user_id/gpg_keys/:key_id',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const { user_id, key_id } = parseParams(userGpgKeyParams, req.params);
      await gpgKeys.remove(caller, await users.find(user_id), key_id);
      res.status(204).end();
    }),
  );

  return router;
}
