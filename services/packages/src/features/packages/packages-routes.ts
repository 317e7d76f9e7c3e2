import { baseUrlOf, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { projectFor, mayOnPackages } from './package-access.ts';
import type { PackageStatus } from './package.entity.ts';
import type { ListedPackage, PackagesService } from './packages-service.ts';
import { packageFileView, packageVersionView, packageView } from './packages-views.ts';
import {
  GROUP_PACKAGE_ORDERS,
  groupPackagesQuery,
  PACKAGE_FILE_ORDERS,
  packageFileParams,
  packageParams,
  PROJECT_PACKAGE_ORDERS,
  projectPackagesQuery,
} from './packages.schemas.ts';

export interface PackagesRouteDeps {
  access: IdentityAccess;
  packages: PackagesService;
}

const route = routesOf<PackagesRouteDeps>('packages');

/** The filters both package lists take. */
const filtersOf = (input: {
  package_type?: string | undefined;
  package_name?: string | undefined;
  status?: PackageStatus | undefined;
  include_versionless: boolean;
}) => ({
  packageType: input.package_type,
  packageName: input.package_name,
  status: input.status,
  includeVersionless: input.include_versionless,
});

/** GitLab's Packages API: what a project or group holds, single packages, their files, deletion. */
export const packagesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/packages',
    access: 'anonymous',
    scope: 'read_api',
    input: projectPackagesQuery,
    order: { by: PROJECT_PACKAGE_ORDERS, default: 'created_at', sort: 'asc' },
    handle: async ({ caller, input, deps, request, order, window }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      const result = await deps.packages.listForProject(project, { ...filtersOf(input), orderBy: order.by, sort: order.sort, window });
      const apiBaseUrl = `${baseUrlOf(request)}/api/v4`;
      return { ...result, items: result.items.map((listed: ListedPackage) => packageView(listed.item, { ...listed, apiBaseUrl })) };
    },
  }),

  route.list({
    path: '/api/v4/groups/:id/packages',
    access: 'anonymous',
    scope: 'read_api',
    input: groupPackagesQuery,
    order: { by: GROUP_PACKAGE_ORDERS, default: 'created_at', sort: 'asc' },
    handle: async ({ caller, input, deps, request, order, window }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const result = await deps.packages.listForGroup({
        ...filtersOf(input),
        orderBy: order.by,
        sort: order.sort,
        window,
        groupId,
        includeSubgroups: !input.exclude_subgroups,
        caller,
      });
      const apiBaseUrl = `${baseUrlOf(request)}/api/v4`;
      return { ...result, items: result.items.map((listed) => packageView(listed.item, { ...listed, apiBaseUrl, inGroup: true })) };
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

  route.list({
    path: '/api/v4/projects/:id/packages/:package_id/package_files',
    access: 'anonymous',
    scope: 'read_api',
    input: packageParams,
    order: { by: PACKAGE_FILE_ORDERS, default: 'id', sort: 'asc' },
    handle: async ({ caller, input, deps, order, window }) => {
      const project = await projectFor({ ...deps, caller, idOrPath: input.id, action: 'read' });
      const files = await deps.packages.files(project, input.package_id, order);
      return { items: files.slice(window.offset, window.offset + window.limit).map(packageFileView), total: files.length };
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
