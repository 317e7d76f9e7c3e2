import { z } from 'zod';
import { params, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { accessRepository } from '../repositories/project-repositories.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { gitRevision } from '../repositories/repository-params.ts';
import { tagView } from './tag-views.ts';
import type { TagsService } from './tags-service.ts';

export interface TagsRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
  tags: TagsService;
}

const route = routesOf<TagsRouteDeps>('review');
const tagName = z.string().min(1).max(1024);

export const tagsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/repository/tags',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      search: z.string().max(255).optional(),
      order_by: z.enum(['name', 'updated', 'version']).default('updated'),
      sort: z.enum(['asc', 'desc']).default('desc'),
    }),
    handle: async ({ caller, input, deps, window }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const tags = await deps.tags.list(
        { projectId: project.id, git: repository.git },
        { search: input.search, order: input.order_by, sort: input.sort },
      );
      return { total: tags.length, items: tags.slice(window.offset, window.offset + window.limit).map((tag) => tagView(tag, project)) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/tags/:tag_name',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), tag_name: tagName }),
    handle: async ({ caller, input, deps }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      return tagView(await deps.tags.get({ projectId: project.id, git: repository.git }, input.tag_name), project);
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/repository/tags',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      tag_name: tagName,
      ref: gitRevision(),
      message: z
        .string()
        .max(1024 * 1024)
        .optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
      const created = await deps.tags.create({ accessed, caller, name: input.tag_name, ref: input.ref, message: input.message });
      return tagView(created, accessed.project);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/repository/tags/:tag_name',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), tag_name: tagName }),
    handle: async ({ caller, input, deps }) => {
      const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
      await deps.tags.delete({ accessed, caller, name: input.tag_name });
    },
  }),
];
