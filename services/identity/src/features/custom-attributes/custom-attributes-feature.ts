import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import { customAttributeEntities } from './custom-attribute.entity.ts';
import type { CustomAttributesService } from './custom-attributes-service.ts';
import { customAttributesRoutes } from './custom-attributes-routes.ts';
import { ResourceCustomAttributes } from './resource-custom-attributes.ts';
import { resourceCustomAttributesRoutes } from './resource-custom-attributes-routes.ts';

export const customAttributesEntities = Object.values(customAttributeEntities);

/** Custom attributes of users, groups and projects, which administrators set. */
export function createCustomAttributesFeature(deps: {
  em: EntityManager;
  access: AccessPolicy;
  /** The users feature's, which lists them with users. */
  userAttributes: CustomAttributesService;
}): Feature {
  const { em, access } = deps;
  return {
    routes: [
      createRouter(customAttributesRoutes, { customAttributes: deps.userAttributes }),
      createRouter(resourceCustomAttributesRoutes, {
        groups: new ResourceCustomAttributes({ em, resource: 'group', access }),
        projects: new ResourceCustomAttributes({ em, resource: 'project', access }),
        access,
      }),
    ],
  };
}
