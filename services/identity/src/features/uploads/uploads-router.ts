/**
 * `GET /uploads/-/system/<user|group|project>/avatar/<id>/<file name>`: where `avatar_url` points,
 * as in GitLab, outside the REST API. A user's avatar is public; a group's or project's is served
 * to whoever may see the group or project. Only the current avatar of its owner is served.
 */
import { Router, type Request, type Response } from 'express';
import { inUnitOfWork, type Orm } from '@platform/db';
import { callerOf } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { UserStore } from '../users/users-store.ts';
import { parseAvatarUrl, type AvatarStorage } from '../avatars/avatar-storage.ts';

export interface AvatarUploadsDeps {
  /** These paths are outside the REST API and its unit of work per request: each lookup opens its own. */
  orm: Orm;
  avatars: AvatarStorage;
  users: UserStore;
  access: AccessPolicy;
  logger: Logger;
}

export function avatarUploadsRoutes(deps: AvatarUploadsDeps): Router {
  const router = Router();

  /** The owner's current avatar path, when the caller may see the owner. */
  async function currentAvatar(req: Request, owner: { kind: 'user' | 'group' | 'project'; id: number }): Promise<string | null> {
    if (owner.kind === 'user') return (await deps.users.findById(owner.id))?.avatarUrl ?? null;
    const viewer = await deps.access.viewerOf(callerOf(req));
    const found =
      owner.kind === 'group'
        ? await deps.access.group(viewer, owner.id).then(
            ({ group }) => group,
            () => null,
          )
        : await deps.access.project(viewer, owner.id).then(
            ({ project }) => project,
            () => null,
          );
    return found?.avatarUrl ?? null;
  }

  async function serve(req: Request, res: Response): Promise<void> {
    const owner = parseAvatarUrl(req.path);
    const current = owner && (await inUnitOfWork(deps.orm, () => currentAvatar(req, owner)));
    const file = current === req.path ? await deps.avatars.read(req.path) : null;
    if (!file) {
      res.status(404).json({ message: '404 Not Found' });
      return;
    }
    res.status(200).type(file.type).set('Cache-Control', 'private, max-age=60').send(file.content);
  }

  router.get(/^\/uploads\/-\/system\/(user|group|project)\/avatar\/\d+\/[^/]+$/, (req, res, next) => {
    serve(req, res).catch((error: unknown) => {
      deps.logger.error({ err: error, path: req.path }, 'serving an avatar failed');
      next(error);
    });
  });
  return router;
}
