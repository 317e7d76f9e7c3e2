/**
 * `POST /container_registry_event/events`, where the registry reports pushes and
 * deletions (GitLab's endpoint, outside the REST API here: only the registry calls it). The registry is no user: it sends the shared secret as
 * `Authorization`, checked before the body is read.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router } from 'express';
import { inUnitOfWork, type Orm } from '@platform/db';
import { UnauthorizedError } from '@platform/errors';
import type { Logger } from '@platform/logger';
import type { ContainerRegistryService, RegistryNotification } from './container-registry-service.ts';

const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

export function registryNotificationRoutes(deps: {
  orm: Orm;
  registry: ContainerRegistryService;
  secret: string | undefined;
  logger: Logger;
}): Router {
  const router = Router();
  // The registry sends `application/vnd.docker.distribution.events.v1+json`.
  const jsonBody = express.json({ limit: 1024 * 1024, type: () => true });
  router.post(
    '/container_registry_event/events',
    (req, _res, next) => {
      const given = req.get('authorization');
      if (!deps.secret || !given || !sameSecret(given, deps.secret)) {
        req.resume();
        next(new UnauthorizedError());
        return;
      }
      next();
    },
    jsonBody,
    (req, res, next) => {
      const events = ((req.body as { events?: RegistryNotification[] } | undefined)?.events ?? []).filter(
        (event) => typeof event === 'object' && event !== null,
      );
      (async () => {
        // In order: a push and a later deletion of the same tag must end deleted. Each event is a unit of work of its own.
        for (const event of events) await inUnitOfWork(deps.orm, () => deps.registry.notified(event));
        res.status(200).json({});
      })().catch(next);
    },
  );
  return router;
}
