import { Router } from 'express';
import { z } from 'zod';
import { NotFoundError } from '@platform/errors';
import { asyncHandler, callerOf, parseParams, requestParams, idOrPathParams } from '@platform/http';
import type { Viewer } from '../members/access-sql.ts';
import type { AccessPolicy } from '../members/access-policy.ts';

/** A group or project service, as far as its administrators' custom attributes go. */
export interface CustomAttributeOwner {
  customAttributes(viewer: Viewer, idOrPath: number | string): Promise<Array<{ key: string; value: string }>>;
  setCustomAttribute(viewer: Viewer, idOrPath: number | string, key: string, value: string): Promise<{ key: string; value: string }>;
  removeCustomAttribute(viewer: Viewer, idOrPath: number | string, key: string): Promise<void>;
}

const keyParams = z.object({ key: z.string().min(1).max(255) });
const setParams = keyParams.extend({ value: z.string().max(255) });

/** GitLab's `/<groups|projects>/:id/custom_attributes[/:key]` endpoints. */
export function resourceCustomAttributesRoutes(options: {
  resource: 'groups' | 'projects';
  owner: CustomAttributeOwner;
  access: AccessPolicy;
}): Router {
  const { owner, access } = options;
  const base = `/api/v4/${options.resource}/:id/custom_attributes`;
  const router = Router();

  router.get(
    base,
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const { id } = parseParams(idOrPathParams, req.params);
      res.json((await owner.customAttributes(viewer, id)).map(({ key, value }) => ({ key, value })));
    }),
  );

  router.get(
    `${base}/:key`,
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const { id } = parseParams(idOrPathParams, req.params);
      const { key } = parseParams(keyParams, req.params);
      const attribute = (await owner.customAttributes(viewer, id)).find((candidate) => candidate.key === key);
      if (!attribute) throw new NotFoundError('Custom Attribute');
      res.json({ key: attribute.key, value: attribute.value });
    }),
  );

  router.put(
    `${base}/:key`,
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const { id } = parseParams(idOrPathParams, req.params);
      const { key, value } = parseParams(setParams, requestParams(req));
      const attribute = await owner.setCustomAttribute(viewer, id, key, value);
      res.json({ key: attribute.key, value: attribute.value });
    }),
  );

  router.delete(
    `${base}/:key`,
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const { id } = parseParams(idOrPathParams, req.params);
      const { key } = parseParams(keyParams, req.params);
      await owner.removeCustomAttribute(viewer, id, key);
      res.status(204).end();
    }),
  );

  return router;
}
