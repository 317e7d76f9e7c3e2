import type { Readable } from 'node:stream';
import type { Request } from 'express';
import { InputError } from '@platform/errors';
import { reply, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { projectFor } from '../packages/package-access.ts';
import type { GenericRegistry, GenericTarget } from './generic-registry.ts';
import { genericPackageFileView } from './generic-views.ts';
import { genericFileParams, genericUploadParams, type GenericFileParams } from './generic.schemas.ts';

export interface GenericRouteDeps {
  access: IdentityAccess;
  generic: GenericRegistry;
}

const route = routesOf<GenericRouteDeps>('packages');

const targetOf = (input: GenericFileParams): GenericTarget => ({
  name: input.package_name,
  version: input.package_version,
  path: input.path,
  fileName: input.file_name,
});

/** The uploaded bytes: only a body no parser read (curl's `--upload-file` sends it untyped, clients as octet-stream). */
function uploadedBody(request: Request): Readable {
  if (request.readableEnded || request.body !== undefined) throw new InputError('file is missing');
  return request;
}

/**
 * A package file's address: its name alone, or after directories (`dist/linux/tool`), which GitLab
 * accepts the same way (its route's optional `*path`).
 */
const FILE_PATHS = [
  '/api/v4/projects/:id/packages/generic/:package_name/:package_version/:file_name',
  '/api/v4/projects/:id/packages/generic/:package_name/:package_version/*path/:file_name',
];

/** GitLab's generic packages: upload a file to a package version, download it back. */
export const genericRoutes = FILE_PATHS.flatMap((path) => [
  route({
    method: 'PUT',
    path,
    // GitLab's generic packages take a deploy token with write_package_registry as well as a user.
    access: 'user_or_deploy_token',
    scope: 'api',
    status: 201,
    input: genericUploadParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'publish' });
      const file = await deps.generic.upload(project, caller, {
        target: targetOf(input),
        status: input.status,
        body: uploadedBody(request),
      });
      return input.select === 'package_file' ? genericPackageFileView(file) : { message: '201 Created' };
    },
  }),

  route({
    method: 'GET',
    path,
    access: 'anonymous',
    scope: 'read_api',
    input: genericFileParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      const { file, stream } = await deps.generic.download(project, targetOf(input));
      return reply({
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(file.size),
          'Content-Disposition': `attachment; filename="${input.file_name}"; filename*=UTF-8''${encodeURIComponent(input.file_name)}`,
          'X-Checksum-SHA256': file.fileSha256,
        },
        stream,
      });
    },
  }),
]);
