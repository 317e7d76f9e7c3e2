import type { EntityManager } from '@mikro-orm/postgresql';
import { ForbiddenError, UnauthorizedError } from '@platform/errors';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { Viewer } from '../access/access-sql.ts';
import type { CustomAttribute } from './custom-attribute.entity.ts';
import { CustomAttributesService } from './custom-attributes-service.ts';
import { PgCustomAttributeStore } from './custom-attributes-store.ts';
import type { CustomAttributeOwner } from './resource-custom-attributes-routes.ts';

/** A group or project as the viewer asking about its custom attributes names it. */
interface ResourceRef {
  viewer: Viewer;
  idOrPath: number | string;
}

/** The custom attributes of groups or of projects: administrators manage those they can see. */
export class ResourceCustomAttributes implements CustomAttributeOwner {
  readonly #attributes: CustomAttributesService<ResourceRef>;

  constructor(options: { em: EntityManager; resource: 'group' | 'project'; access: AccessPolicy }) {
    const { access, resource } = options;
    this.#attributes = new CustomAttributesService<ResourceRef>({
      attributes: new PgCustomAttributeStore(options.em, resource),
      ownerId: async ({ viewer, idOrPath }) => {
        if (viewer.kind !== 'user') throw new UnauthorizedError();
        if (!viewer.isAdmin) throw new ForbiddenError();
        return resource === 'group' ? (await access.group(viewer, idOrPath)).group.id : (await access.project(viewer, idOrPath)).project.id;
      },
    });
  }

  /** For lists and details shown `with_custom_attributes`. */
  listFor(ids: number[]): Promise<Map<number, CustomAttribute[]>> {
    return this.#attributes.listFor(ids);
  }

  customAttributes(viewer: Viewer, idOrPath: number | string): Promise<CustomAttribute[]> {
    return this.#attributes.list({ viewer, idOrPath });
  }

  setCustomAttribute(viewer: Viewer, idOrPath: number | string, key: string, value: string): Promise<CustomAttribute> {
    return this.#attributes.set({ viewer, idOrPath }, { key, value });
  }

  removeCustomAttribute(viewer: Viewer, idOrPath: number | string, key: string): Promise<void> {
    return this.#attributes.remove({ viewer, idOrPath }, key);
  }
}
