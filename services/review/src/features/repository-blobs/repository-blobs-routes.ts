import { z } from 'zod';
import { NotFoundError } from '@platform/errors';
import { params, reply, routesOf } from '@platform/http';
import type { Caller } from '@platform/auth';
import type { IdentityAccess } from '@platform/identity-client';
import { jsonWithBase64Content, rawBlobReply } from '../repositories/blob-content.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { gitRevision } from '../repositories/repository-params.ts';

export interface RepositoryBlobsRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
}

const route = routesOf<RepositoryBlobsRouteDeps>('review');

const blobInput = z.object({ id: params.idOrPath(), sha: gitRevision() });

/** The blob `sha` names (a blob id, or `<ref>:<path>`), once the caller may read the code; 404 `Blob` otherwise. */
async function blobOf(deps: RepositoryBlobsRouteDeps, caller: Caller, input: z.output<typeof blobInput>) {
  const { repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
  const blob = await repository.git.blob(input.sha);
  if (!blob) throw new NotFoundError('Blob');
  return { git: repository.git, blob };
}

export const repositoryBlobsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/blobs/:sha',
    access: 'anonymous',
    scope: 'read_api',
    input: blobInput,
    handle: async ({ caller, input, deps }) => {
      const { git, blob } = await blobOf(deps, caller, input);
      return reply({
        headers: { 'Content-Type': 'application/json' },
        stream: jsonWithBase64Content({ git, blobId: blob.id, fields: { size: blob.size, encoding: 'base64', sha: blob.id } }),
      });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/blobs/:sha/raw',
    access: 'anonymous',
    scope: 'read_api',
    input: blobInput,
    handle: async ({ caller, input, deps }) => {
      const { git, blob } = await blobOf(deps, caller, input);
      return rawBlobReply({ git, blob });
    },
  }),
];
