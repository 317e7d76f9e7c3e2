import { baseUrlOf, pageParams, pageShape, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { projectFor, mayOnPackages } from './package-access.ts';
import type { PackageStatus } from './package.entity.ts';
import type { ListedPackage, PackagesService } from './packages-service.ts';
import { packageFileView, packageVersionView, packageView } from './packages-views.ts';
import { groupPackagesQuery, packageFileParams, packageParams, projectPackagesQuery } from './packages.schemas.ts';

export interface PackagesRouteDeps {
  access: IdentityAccess;
  packages: PackagesService;
}

const route = routesOf<PackagesRouteDeps>('packages');

const listOptions = (input: {
  order_by: string;
  sort: 'asc' | 'desc';
  package_type?: string | undefined;
  package_name?: string | undefined;
  status?: PackageStatus | undefined;
  include_versionless: boolean;
}) => ({
  orderBy: input.order_by as 'created_at',
  sort: input.sort,
  packageType: input.package_type,
  packageName: input.package_name,
  status: input.status,
  includeVersionless: input.include_versionless,
});

/** GitLab's Packages API: what a project or group holds, single packages, their files, deletion. */
export const packagesRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/packages',
    access: 'anonymous',
    scope: 'read_api',
    input: projectPackagesQuery,
    handle: async ({ caller, input, deps, page, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      const window = pageParams(input);
      const result = await deps.packages.listForProject(project, {
        ...listOptions(input),
        window: { offset: window.offset, limit: window.perPage },
      });
      const apiBaseUrl = `${baseUrlOf(request)}/api/v4`;
      return page(window, {
        ...result,
        items: result.items.map((listed: ListedPackage) => packageView(listed.item, { ...listed, apiBaseUrl })),
      });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id/packages',
    access: 'anonymous',
    scope: 'read_api',
    input: groupPackagesQuery,
    handle: async ({ caller, input, deps, page, request }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const window = pageParams(input);
      const result = await deps.packages.listForGroup({
        ...listOptions(input),
        groupId,
        includeSubgroups: !input.exclude_subgroups,
        caller,
        window: { offset: window.offset, limit: window.perPage },
      });
      const apiBaseUrl = `${baseUrlOf(request)}/api/v4`;
      return page(window, {
        ...result,
        items: result.items.map((listed) => packageView(listed.item, { ...listed, apiBaseUrl, inGroup: true })),
      });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/packages/:package_id',
    access: 'anonymous',
    scope: 'read_api',
    input: packageParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      const found = await deps.packages.get(project, input.package_id);
      return {
        ...packageView(found.item, {
          tags: found.tags,
          canDestroy: mayOnPackages(project, 'destroy'),
          apiBaseUrl: `${baseUrlOf(request)}/api/v4`,
        }),
        versions: found.versions.map((version) => packageVersionView(version.item, version.tags)),
      };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/packages/:package_id/package_files',
    access: 'anonymous',
    scope: 'read_api',
    input: packageParams.extend(pageShape),
    handle: async ({ caller, input, deps, page }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      const files = await deps.packages.files(project, input.package_id);
      const window = pageParams(input);
      return page(window, { items: files.slice(window.offset, window.offset + window.perPage).map(packageFileView), total: files.length });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/packages/:package_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: packageParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'destroy' });
      await deps.packages.delete(project, input.package_id, caller);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/packages/:package_id/package_files/:package_file_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: packageFileParams,
    handle: async ({ caller, input, deps }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'destroy' });
      await deps.packages.deleteFile(project, { packageId: input.package_id, fileId: input.package_file_id });
    },
  }),
];
