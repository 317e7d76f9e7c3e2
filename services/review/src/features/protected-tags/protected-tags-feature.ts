import { readModelDatabase, type EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { ProtectedTag, ProtectedTagCreateAccessLevel } from './protected-tag.entity.ts';
import { ProtectedTagsReadModel } from './protected-tags-read-model.ts';
import { protectedTagsRoutes } from './protected-tags-routes.ts';
import { ProtectedTagsService } from './protected-tags-service.ts';
import { PgProtectedTagStore } from './protected-tags-store.ts';

export const protectedTagsEntities = [ProtectedTag, ProtectedTagCreateAccessLevel];

export interface ProtectedTagsFeature extends Feature {
  protectedTags: ProtectedTagsService;
}

/** Protected tags: who may create which tags; pushes and the tags API refuse the rest (judged with the protected branches' rules). */
export function createProtectedTagsFeature(deps: { em: EntityManager; access: IdentityAccess }): ProtectedTagsFeature {
  const protectedTags = new ProtectedTagsService({
    em: deps.em,
    store: new PgProtectedTagStore(deps.em),
    readModel: new ProtectedTagsReadModel(readModelDatabase(deps.em)),
  });
  return { protectedTags, routes: [createRouter(protectedTagsRoutes, { access: deps.access, protectedTags })] };
}
