import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { RepositoryWrites } from '../repository-writes/repository-writes-feature.ts';
import { TagsService } from './tags-service.ts';
import { tagsRoutes } from './tags-routes.ts';

/** A repository's tags: listed and read, created and deleted as pushes are. */
export function createTagsFeature(deps: { access: IdentityAccess; repositories: RepositoriesService; writes: RepositoryWrites }): Feature {
  const tags = new TagsService({ refUpdates: deps.writes.refUpdates });
  return { routes: [createRouter(tagsRoutes, { access: deps.access, repositories: deps.repositories, tags })] };
}
