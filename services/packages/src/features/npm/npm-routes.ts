import type { Readable } from 'node:stream';
import type { Request } from 'express';
import type { Caller } from '@platform/auth';
import { ForbiddenError, InputError } from '@platform/errors';
import { baseUrlOf, parseParams, reply, requestParams, routesOf } from '@platform/http';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { callerMayOnPackages, projectFor, type PackageAction } from '../packages/package-access.ts';
import type { NpmRegistry } from './npm-registry.ts';
import { npmPackageDocumentView } from './npm-views.ts';
import {
  instanceDistTagParams,
  instanceNpmFileParams,
  instanceNpmPackageParams,
  npmDeprecateInput,
  npmKeptVersionsInput,
  npmPublishInput,
  projectDistTagParams,
  projectNpmFileRevisionParams,
  projectNpmRevisionParams,
  projectNpmFileParams,
  projectNpmPackageParams,
} from './npm.schemas.ts';

export interface NpmRouteDeps {
  access: IdentityAccess;
  npm: NpmRegistry;
}

const route = routesOf<NpmRouteDeps>('packages');

const projectRegistryUrl = (request: Request, projectId: number) => `${baseUrlOf(request)}/api/v4/projects/${projectId}/packages/npm`;
const instanceRegistryUrl = (request: Request) => `${baseUrlOf(request)}/api/v4/packages/npm`;

/** The version `npm dist-tag add` PUTs: its body is one JSON string. */
function taggedVersion(request: Request): string {
  const body: unknown = request.body;
  if (typeof body !== 'string' || body.length === 0) throw new InputError('version is missing');
  return body;
}

/** At instance level the package's scope finds the project; then the same rights apply. */
async function scopedProject(deps: NpmRouteDeps, options: { name: string; caller: Caller; action: PackageAction }): Promise<ProjectAccess> {
  const project = await deps.npm.projectOfScopedPackage({ name: options.name, caller: options.caller });
  if (!callerMayOnPackages(options.caller, project, options.action)) throw new ForbiddenError();
  return project;
}

const tarballReply = ({ size, stream }: { size: number; stream: Readable }) =>
  reply({ headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(size) }, stream });

/**
 * GitLab's npm registry, project level (`/projects/:id/packages/npm/`, where `npm publish` goes)
 * and instance level (`/packages/npm/`, scoped packages found by their scope).
 */
export const npmRoutes = [
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/packages/npm/:package_name',
    access: 'user_or_deploy_token',
    scope: 'api',
    input: projectNpmPackageParams.loose(),
    handle: async ({ caller, input, deps, request }) => {
      // As GitLab tells them apart: npm names its command in a header.
      if (request.get('npm-command') === 'deprecate') {
        const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'destroy' });
        await deps.npm.deprecate(project, parseParams(npmDeprecateInput, requestParams(request)));
        return { ok: true };
      }
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'publish' });
      await deps.npm.publish(project, caller, parseParams(npmPublishInput, requestParams(request)));
      return { ok: true };
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/packages/npm/:package_name/-rev/:rev',
    access: 'user',
    scope: 'api',
    input: projectNpmRevisionParams.loose(),
    handle: async ({ caller, input, deps, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'destroy' });
      const document = parseParams(npmKeptVersionsInput, requestParams(request));
      await deps.npm.keepVersions(project, caller, {
        name: input.package_name,
        keep: Object.keys(document.versions),
        distTags: document['dist-tags'],
      });
      return { ok: true };
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/packages/npm/:package_name/-rev/:rev',
    access: 'user',
    scope: 'api',
    input: projectNpmRevisionParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'destroy' });
      await deps.npm.unpublishAll(project, caller, input.package_name);
      return { ok: true };
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/packages/npm/:package_name/-/:file_name/-rev/:rev',
    access: 'user',
    scope: 'api',
    input: projectNpmFileRevisionParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'destroy' });
      await deps.npm.unpublishTarball(project, caller, { name: input.package_name, fileName: input.file_name });
      return { ok: true };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/packages/npm/:package_name',
    access: 'anonymous',
    scope: 'read_api',
    input: projectNpmPackageParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      const document = await deps.npm.document(project, input.package_name);
      return npmPackageDocumentView(document, { registryUrl: projectRegistryUrl(request, project.id) });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/packages/npm/:package_name/-/:file_name',
    access: 'anonymous',
    scope: 'read_api',
    input: projectNpmFileParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      return tarballReply(await deps.npm.tarball(project, { name: input.package_name, fileName: input.file_name }));
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/packages/npm/-/package/:package_name/dist-tags',
    access: 'anonymous',
    scope: 'read_api',
    input: projectNpmPackageParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      return deps.npm.distTags(project, input.package_name);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/packages/npm/-/package/:package_name/dist-tags/:tag',
    access: 'user_or_deploy_token',
    scope: 'api',
    status: 204,
    input: projectDistTagParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'publish' });
      await deps.npm.setDistTag(project, { name: input.package_name, tag: input.tag, version: taggedVersion(request) });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/packages/npm/-/package/:package_name/dist-tags/:tag',
    access: 'user',
    scope: 'api',
    status: 204,
    input: projectDistTagParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'destroy' });
      await deps.npm.removeDistTag(project, { name: input.package_name, tag: input.tag });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/packages/npm/:package_name',
    access: 'anonymous',
    scope: 'read_api',
    input: instanceNpmPackageParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await scopedProject(deps, { name: input.package_name, caller, action: 'read' });
      return npmPackageDocumentView(await deps.npm.document(project, input.package_name), { registryUrl: instanceRegistryUrl(request) });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/packages/npm/:package_name/-/:file_name',
    access: 'anonymous',
    scope: 'read_api',
    input: instanceNpmFileParams,
    handle: async ({ caller, input, deps }) => {
      const project = await scopedProject(deps, { name: input.package_name, caller, action: 'read' });
      return tarballReply(await deps.npm.tarball(project, { name: input.package_name, fileName: input.file_name }));
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/packages/npm/-/package/:package_name/dist-tags',
    access: 'anonymous',
    scope: 'read_api',
    input: instanceNpmPackageParams,
    handle: async ({ caller, input, deps }) => {
      const project = await scopedProject(deps, { name: input.package_name, caller, action: 'read' });
      return deps.npm.distTags(project, input.package_name);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/packages/npm/-/package/:package_name/dist-tags/:tag',
    access: 'user_or_deploy_token',
    scope: 'api',
    status: 204,
    input: instanceDistTagParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await scopedProject(deps, { name: input.package_name, caller, action: 'publish' });
      await deps.npm.setDistTag(project, { name: input.package_name, tag: input.tag, version: taggedVersion(request) });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/packages/npm/-/package/:package_name/dist-tags/:tag',
    access: 'user',
    scope: 'api',
    status: 204,
    input: instanceDistTagParams,
    handle: async ({ caller, input, deps }) => {
      const project = await scopedProject(deps, { name: input.package_name, caller, action: 'destroy' });
      await deps.npm.removeDistTag(project, { name: input.package_name, tag: input.tag });
    },
  }),
];
