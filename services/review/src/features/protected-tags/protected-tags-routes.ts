import { z } from 'zod';
import { actorOf, type Caller } from '@platform/auth';
import { pageParams, pageShape, params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import { protectedTagView } from './protected-tag-views.ts';
import type { ProtectedTagsService } from './protected-tags-service.ts';

export interface ProtectedTagsRouteDeps {
  access: IdentityAccess;
  protectedTags: ProtectedTagsService;
}

const route = routesOf<ProtectedTagsRouteDeps>('review');

/** Protected tags are a maintainer's business, as in GitLab (`admin_project`). */
function maintainedProject(deps: ProtectedTagsRouteDeps, caller: Caller, idOrPath: string | number): Promise<ProjectAccess> {
  return requireProjectAccess({ access: deps.access, caller, idOrPath, minimumLevel: ACCESS_LEVEL.MAINTAINER });
}

/** The roles GitLab lets create protected tags: no one, developers and maintainers, maintainers. */
const createAccessLevel = () =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.literal([ACCESS_LEVEL.NO_ACCESS, ACCESS_LEVEL.DEVELOPER, ACCESS_LEVEL.MAINTAINER]),
  );
const nameParam = z.string().min(1).max(255);

export const protectedTagsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/protected_tags',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const project = await maintainedProject(deps, caller, input.id);
      const window = pageParams(input);
      const all = await deps.protectedTags.list(project.id);
      return page(window, { items: all.slice(window.offset, window.offset + window.perPage).map(protectedTagView), total: all.length });
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/protected_tags/:name',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), name: nameParam }),
    handle: async ({ caller, input, deps }) => {
      const project = await maintainedProject(deps, caller, input.id);
      return protectedTagView(await deps.protectedTags.get(project.id, input.name));
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/protected_tags',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ id: params.idOrPath(), name: nameParam, create_access_level: createAccessLevel().default(ACCESS_LEVEL.MAINTAINER) }),
    handle: async ({ caller, input, deps }) => {
      const project = await maintainedProject(deps, caller, input.id);
      return protectedTagView(
        await deps.protectedTags.protect({
          projectId: project.id,
          name: input.name,
          createAccessLevel: input.create_access_level,
          actor: caller.kind === 'user' ? actorOf(caller) : null,
        }),
      );
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/protected_tags/:name',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), name: nameParam }),
    handle: async ({ caller, input, deps }) => {
      const project = await maintainedProject(deps, caller, input.id);
      await deps.protectedTags.unprotect({
        projectId: project.id,
        name: input.name,
        actor: caller.kind === 'user' ? actorOf(caller) : null,
      });
    },
  }),
];
