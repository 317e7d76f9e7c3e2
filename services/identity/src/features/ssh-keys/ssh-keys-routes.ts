import { Router } from 'express';
import { requireAdmin, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage } from '@platform/http';
import type { User } from '../users/user.entity.ts';
import type { UsersService } from '../users/users-service.ts';
import type { ViewContext } from '../users/user-views.ts';
import type { SshKey } from './ssh-key.entity.ts';
import { publishableKey } from './ssh-key-parsing.ts';
import type { SshKeysService } from './ssh-keys-service.ts';
import { addSshKeyParams, ownKeyParams, ownKeysParams, userKeyParams, userKeysParams } from './ssh-keys.schemas.ts';

export function sshKeyView(key: SshKey, owner: User, context: ViewContext) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.createdAt,
    expires_at: key.expiresAt ?? null,
    key: publishableKey(key.key, { ownerName: owner.name, host: new URL(context.externalUrl).host }),
    usage_type: key.usageType,
  };
}

/** GitLab's SSH key endpoints, for the current user (`/user/keys`) and for any user (`/users/:id/keys`). */
export function sshKeysRoutes(options: { sshKeys: SshKeysService; users: UsersService; views: ViewContext }): Router {
  const { sshKeys, users, views } = options;
  const router = Router();

  router.get(
    '/api/v4/user/keys',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const page = pageParams(parseParams(ownKeysParams, req.query));
      const owner = await users.find(caller.userId);
      const { items, total } = await sshKeys.list(owner, { offset: page.offset, limit: page.perPage });
      sendPage(req, res, { page, total, items: items.map((key) => sshKeyView(key, owner, views)) });
    }),
  );

  router.get(
    '/api/v4/user/keys/:key_id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { key_id } = parseParams(ownKeyParams, req.params);
      const owner = await users.find(caller.userId);
      res.json(sshKeyView(await sshKeys.get(owner, key_id), owner, views));
    }),
  );

  router.post(
    '/api/v4/user/keys',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const input = parseParams(addSshKeyParams, requestParams(req));
      const owner = await users.find(caller.userId);
      res.status(201).json(sshKeyView(await sshKeys.add(caller, owner, input), owner, views));
    }),
  );

  router.delete(
    '/api/v4/user/keys/:key_id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { key_id } = parseParams(ownKeyParams, req.params);
      await sshKeys.remove(caller, await users.find(caller.userId), key_id);
      res.status(204).end();
    }),
  );

  router.get(
    '/api/v4/users/:user_id/keys',
    asyncHandler(async (req, res) => {
      const input = parseParams(userKeysParams, requestParams(req));
      const page = pageParams(input);
      const owner = await users.find(input.user_id);
      const { items, total } = await sshKeys.list(owner, { offset: page.offset, limit: page.perPage });
      sendPage(req, res, { page, total, items: items.map((key) => sshKeyView(key, owner, views)) });
    }),
  );

  router.get(
    '/api/v4/users/:user_id/keys/:key_id',
    asyncHandler(async (req, res) => {
      const { user_id, key_id } = parseParams(userKeyParams, req.params);
      const owner = await users.find(user_id);
      res.json(sshKeyView(await sshKeys.get(owner, key_id), owner, views));
    }),
  );

  router.post(
    '/api/v4/users/:user_id/keys',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const { user_id, ...input } = parseParams(addSshKeyParams.extend({ user_id: userKeysParams.shape.user_id }), requestParams(req));
      const owner = await users.find(user_id);
      res.status(201).json(sshKeyView(await sshKeys.add(caller, owner, input), owner, views));
    }),
  );

  router.delete(
    '/api/v4/users/:user_id/keys/:key_id',
    asyncHandler(async (req, res) => {
      const caller = requireAdmin(callerOf(req));
      const { user_id, key_id } = parseParams(userKeyParams, req.params);
      await sshKeys.remove(caller, await users.find(user_id), key_id);
      res.status(204).end();
    }),
  );

  return router;
}
