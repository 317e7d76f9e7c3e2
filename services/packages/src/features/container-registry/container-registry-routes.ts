import { RefusedError } from '@platform/errors';
import { baseUrlOf, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { parseHumanDuration } from './cleanup-rules.ts';
import type { ContainerRegistryService } from './container-registry-service.ts';
import { repositoryView, tagDetailsView, tagView, type RegistryViewContext } from './container-registry-views.ts';
import { bulkTagDeletion, repositoryListQuery, repositoryParams, repositoryQuery, tagParams } from './container-registry.schemas.ts';
import { mayOnContainerImages, projectForImages } from './registry-access.ts';

export interface ContainerRegistryRouteDeps {
  access: IdentityAccess;
  registry: ContainerRegistryService;
  views: RegistryViewContext;
}

const route = routesOf<ContainerRegistryRouteDeps>('packages');

const ONCE_AN_HOUR = 'This request has already been made. You can run this at most once an hour for a given container repository';

/** GitLab's container registry API over the repositories and tags the registry reported. */
export const containerRegistryRoutes = [
  route.list({
    path: '/api/v4/projects/:id/registry/repositories',
    access: 'anonymous',
    scope: 'read_api',
    input: repositoryListQuery,
    handle: async ({ caller, input, deps, request, window }) => {
      const project = await projectForImages({ ...deps, caller, idOrPath: input.id, ability: 'read' });
      const result = await deps.registry.listForProject(project, window);
      const options = {
        ...deps.views,
        tags: input.tags,
        tagsCount: input.tags_count,
        apiBaseUrl: `${baseUrlOf(request)}/api/v4`,
        canDelete: mayOnContainerImages(project, 'admin'),
      };
      return { items: result.items.map((item) => repositoryView(item, options)), total: result.total };
    },
  }),

  route.list({
    path: '/api/v4/groups/:id/registry/repositories',
    access: 'anonymous',
    scope: 'read_api',
    input: repositoryListQuery,
    handle: async ({ caller, input, deps, request, window }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const result = await deps.registry.listForGroup(groupId, caller, window);
      const options = {
        ...deps.views,
        tags: input.tags,
        tagsCount: input.tags_count,
        apiBaseUrl: `${baseUrlOf(request)}/api/v4`,
        canDelete: false,
      };
      return { items: result.items.map((item) => repositoryView(item, options)), total: result.total };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/registry/repositories/:id',
    access: 'anonymous',
    scope: 'read_api',
    input: repositoryQuery,
    handle: async ({ caller, input, deps, request }) => {
      const repository = await deps.registry.repositoryById(input.id);
      const project = await projectForImages({ ...deps, caller, idOrPath: repository.projectId, ability: 'read' });
      return repositoryView(await deps.registry.withTags(repository), {
        ...deps.views,
        tags: input.tags,
        tagsCount: input.tags_count,
        apiBaseUrl: `${baseUrlOf(request)}/api/v4`,
        canDelete: mayOnContainerImages(project, 'admin'),
      });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/registry/repositories/:repository_id',
    access: 'user',
    scope: 'api',
    status: 202,
    input: repositoryParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectForImages({ ...deps, caller, idOrPath: input.id, ability: 'admin' });
      await deps.registry.scheduleDeletion(await deps.registry.repository(project, input.repository_id), caller);
    },
  }),

  route.list({
    path: '/api/v4/projects/:id/registry/repositories/:repository_id/tags',
    access: 'anonymous',
    scope: 'read_api',
    input: repositoryParams,
    handle: async ({ caller, input, deps, window }) => {
      const project = await projectForImages({ ...deps, caller, idOrPath: input.id, ability: 'read' });
      const repository = await deps.registry.repository(project, input.repository_id);
      const tags = await deps.registry.tags(repository);
      return {
        items: tags.slice(window.offset, window.offset + window.limit).map((tag) => tagView(repository, tag, deps.views)),
        total: tags.length,
      };
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/registry/repositories/:repository_id/tags',
    access: 'user',
    scope: 'api',
    status: 202,
    input: bulkTagDeletion,
    handle: async ({ caller, input, deps }) => {
      const project = await projectForImages({ ...deps, caller, idOrPath: input.id, ability: 'admin' });
      const repository = await deps.registry.repository(project, input.repository_id);
      const nameRegexDelete = input.name_regex_delete ?? input.name_regex ?? '';
      const scheduled = await deps.registry.scheduleCleanup(
        repository,
        {
          nameRegexDelete,
          nameRegexKeep: input.name_regex_keep,
          keepN: input.keep_n,
          olderThanMs: input.older_than === undefined ? undefined : parseHumanDuration(input.older_than),
        },
        caller,
      );
      if (!scheduled) throw new RefusedError(ONCE_AN_HOUR);
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/registry/repositories/:repository_id/tags/:tag_name',
    access: 'anonymous',
    scope: 'read_api',
    input: tagParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectForImages({ ...deps, caller, idOrPath: input.id, ability: 'read' });
      const repository = await deps.registry.repository(project, input.repository_id);
      return tagDetailsView(repository, await deps.registry.tag(repository, input.tag_name), deps.views);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/registry/repositories/:repository_id/tags/:tag_name',
    access: 'user',
    scope: 'api',
    input: tagParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectForImages({ ...deps, caller, idOrPath: input.id, ability: 'destroy' });
      await deps.registry.deleteTag(await deps.registry.repository(project, input.repository_id), input.tag_name, caller);
    },
  }),
];
