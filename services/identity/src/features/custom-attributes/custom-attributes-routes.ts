import { Router } from 'express';
import { requireAdmin } from '@platform/auth';
import { asyncHandler, callerOf, parseParams, requestParams } from '@platform/http';
import type { CustomAttribute } from './custom-attribute.entity.ts';
import type { CustomAttributesService } from './custom-attributes-service.ts';
import { customAttributeKeyParams, customAttributesOwnerParams, setCustomAttributeParams } from './custom-attributes.schemas.ts';

function customAttributeView(attribute: CustomAttribute) {
  return { key: attribute.key, value: attribute.value };
}

/** GitLab's custom attributes of users: administrators only, `:id` an id or a username. */
export function customAttributesRoutes(options: { customAttributes: CustomAttributesService }): Router {
  const { customAttributes } = options;
  const router = Router();

  router.get(
    '/api/v4/users/:id/custom_attributes',
    asyncHandler(async (req, res) => {
      requireAdmin(callerOf(req));
      const { id } = parseParams(customAttributesOwnerParams, req.params);
      res.json((await customAttributes.list(id)).map(customAttributeView));
    }),
  );

  router.get(
    '/api/v4/users/:id/custom_attributes/:key',
    asyncHandler(async (req, res) => {
      requireAdmin(callerOf(req));
      const { id, key } = parseParams(customAttributeKeyParams, req.params);
      res.json(customAttributeView(await customAttributes.get(id, key)));
    }),
  );

  router.put(
    '/api/v4/users/:id/custom_attributes/:key',
    asyncHandler(async (req, res) => {
      requireAdmin(callerOf(req));
      const { id, key, value } = parseParams(setCustomAttributeParams, requestParams(req));
      res.json(customAttributeView(await customAttributes.set(id, { key, value })));
    }),
  );

  router.delete(
    '/api/v4/users/:id/custom_attributes/:key',
    asyncHandler(async (req, res) => {
      requireAdmin(callerOf(req));
      const { id, key } = parseParams(customAttributeKeyParams, req.params);
      await customAttributes.remove(id, key);
      res.status(204).end();
    }),
  );

  return router;
}
