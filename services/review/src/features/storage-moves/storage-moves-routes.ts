import { z } from 'zod';
import { actorOf, type Caller } from '@platform/auth';
import { InputError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { RepositoryStorageMove } from './repository-storage-move.entity.ts';
import type { ProjectDirectory } from './project-directory.ts';
import type { StorageMovesService } from './storage-moves-service.ts';
import { storageMoveView } from './storage-move-views.ts';

export interface StorageMovesRouteDeps {
  access: IdentityAccess;
  storageMoves: StorageMovesService;
  projects: ProjectDirectory;
}

const route = routesOf<StorageMovesRouteDeps>('review');

async function views(deps: StorageMovesRouteDeps, moves: RepositoryStorageMove[]) {
  const projects = await deps.projects.projects(moves.map((move) => move.projectId));
  return moves.map((move) => storageMoveView(move, projects.get(move.projectId)));
}

async function view(deps: StorageMovesRouteDeps, move: RepositoryStorageMove) {
  const [shown] = await views(deps, [move]);
  return shown;
}

/** The project behind `:id` (administrators see every one; 404 for none). */
async function projectIdOf(deps: StorageMovesRouteDeps, caller: Caller, idOrPath: string | number): Promise<number> {
  return (await deps.access.project({ idOrPath: String(idOrPath), caller })).id;
}

const moveId = () => params.integer().pipe(z.number().int().positive());
const storageName = () => z.string().min(1).max(255);

/** GitLab's checks of a storage name given to the bulk move (Grape's `values`). */
function requireKnownStorage(deps: StorageMovesRouteDeps, name: string | undefined, parameter: string): void {
  if (name !== undefined && !deps.storageMoves.knows(name)) throw new InputError(`${parameter} does not have a valid value`);
}

/** GitLab's Project repository storage moves API, for administrators. */
export const storageMovesRoutes = [
  route.list({
    path: '/api/v4/project_repository_storage_moves',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({}),
    handle: async ({ deps, window }) => {
      const page = await deps.storageMoves.list(window);
      return { items: await views(deps, page.items), total: page.total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/project_repository_storage_moves/:repository_storage_id',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({ repository_storage_id: moveId() }),
    handle: async ({ deps, input }) => view(deps, await deps.storageMoves.find(input.repository_storage_id)),
  }),
  route({
    method: 'POST',
    path: '/api/v4/project_repository_storage_moves',
    access: 'administrator',
    scope: 'api',
    status: 202,
    input: z.object({ source_storage_name: storageName(), destination_storage_name: storageName().optional() }),
    handle: async ({ caller, deps, input }) => {
      requireKnownStorage(deps, input.source_storage_name, 'source_storage_name');
      requireKnownStorage(deps, input.destination_storage_name, 'destination_storage_name');
      await deps.storageMoves.scheduleFromStorage({
        source: input.source_storage_name,
        destination: input.destination_storage_name,
        actor: actorOf(caller),
      });
      return { message: '202 Accepted' };
    },
  }),
  route.list({
    path: '/api/v4/projects/:id/repository_storage_moves',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath() }),
    handle: async ({ caller, deps, input, window }) => {
      const page = await deps.storageMoves.list(window, await projectIdOf(deps, caller, input.id));
      return { items: await views(deps, page.items), total: page.total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository_storage_moves/:repository_storage_id',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), repository_storage_id: moveId() }),
    handle: async ({ caller, deps, input }) =>
      view(deps, await deps.storageMoves.find(input.repository_storage_id, await projectIdOf(deps, caller, input.id))),
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/repository_storage_moves',
    access: 'administrator',
    scope: 'api',
    status: 201,
    input: z.object({ id: params.idOrPath(), destination_storage_name: storageName().optional() }),
    handle: async ({ caller, deps, input }) => {
      const projectId = await projectIdOf(deps, caller, input.id);
      const move = await deps.storageMoves.scheduleForProject({
        projectId,
        destination: input.destination_storage_name,
        actor: actorOf(caller),
      });
      return view(deps, move);
    },
  }),
];
