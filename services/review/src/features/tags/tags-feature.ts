import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { RepositoryWrites } from '../repository-writes/repository-writes-feature.ts';
import type { TagProtections } from '../protected-branches/protected-branches-service.ts';
import { TagsService } from './tags-service.ts';
import { tagsRoutes } from './tags-routes.ts';

/** A repository's tags: listed and read, created and deleted as pushes are. */
export function createTagsFeature(deps: {
  access: IdentityAccess;
  repositories: RepositoriesService;
  writes: RepositoryWrites;
  /** The project's protected tags: the views' `protected`, and who may delete one. */
  protections: TagProtections;
}): Feature {
  const tags = new TagsService({ refUpdates: deps.writes.refUpdates, protections: deps.protections });
  return { routes: [createRouter(tagsRoutes, { access: deps.access, repositories: deps.repositories, tags })] };
}
