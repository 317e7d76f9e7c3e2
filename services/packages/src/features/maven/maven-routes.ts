import { Readable } from 'node:stream';
import type { Request } from 'express';
import { InputError, NotFoundError } from '@platform/errors';
import { parseParams, reply, requestParams, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { projectFor } from '../packages/package-access.ts';
import { mavenTarget, type MavenTarget } from './maven-coordinates.ts';
import type { MavenDownload, MavenRegistry } from './maven-registry.ts';
import { mavenFileParams, mavenRouteParams } from './maven.schemas.ts';

export interface MavenRouteDeps {
  access: IdentityAccess;
  maven: MavenRegistry;
}

const route = routesOf<MavenRouteDeps>('packages');

function targetOf(request: Request): MavenTarget {
  const input = parseParams(mavenFileParams, requestParams(request));
  const target = mavenTarget(input.path, input.file_name);
  if (!target) throw new NotFoundError('Package');
  return target;
}

/** The deployed bytes: only a body no parser read (Maven sends files untyped or as octet-stream). */
function uploadedBody(request: Request): Readable {
  if (request.readableEnded || request.body !== undefined) throw new InputError('file is missing');
  return request;
}

const downloadReply = (download: MavenDownload) =>
  download.kind === 'checksum'
    ? reply({ headers: { 'Content-Type': 'text/plain; charset=utf-8' }, stream: Readable.from([download.digest]) })
    : reply({ headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(download.size) }, stream: download.stream });

/** GitLab's Maven repository: deploys to a project, reads from a project, a group or the instance. */
export const mavenRoutes = [
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/packages/maven/*path/:file_name',
    access: 'user_or_deploy_token',
    scope: 'api',
    input: mavenRouteParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'publish' });
      const target = targetOf(request);
      await deps.maven.upload(project, caller, { target, body: uploadedBody(request) });
      return target.checksum ? reply({ status: 204 }) : {};
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/packages/maven/*path/:file_name',
    access: 'anonymous',
    scope: 'read_api',
    input: mavenRouteParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      return downloadReply(await deps.maven.download(project, targetOf(request)));
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id/-/packages/maven/*path/:file_name',
    access: 'anonymous',
    scope: 'read_api',
    input: mavenRouteParams,
    handle: async ({ caller, input, deps, request }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const target = targetOf(request);
      const project = await deps.maven.projectHolding({ target, caller, groupId });
      return downloadReply(await deps.maven.download(project, target));
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/packages/maven/*path/:file_name',
    access: 'anonymous',
    scope: 'read_api',
    input: mavenFileParams,
    handle: async ({ caller, deps, request }) => {
      const target = targetOf(request);
      const project = await deps.maven.projectHolding({ target, caller });
      return downloadReply(await deps.maven.download(project, target));
    },
  }),
];
