import { z } from 'zod';
import { pageShape, params } from '@platform/http';
import { PACKAGE_STATUSES } from './package.entity.ts';

/** Every format GitLab names in `package_type`; this registry holds npm and Maven packages. */
const PACKAGE_TYPE_FILTER = z.enum([
  'conan',
  'maven',
  'npm',
  'pypi',
  'composer',
  'nuget',
  'helm',
  'terraform_module',
  'golang',
  'generic',
  'debian',
  'rubygems',
  'ml_model',
]);

const listShape = {
  sort: z.enum(['asc', 'desc']).default('asc'),
  package_type: PACKAGE_TYPE_FILTER.optional(),
  package_name: z.string().max(255).optional(),
  /** Only packages in this state; without it, the displayable ones (`default`, `error`). */
  status: z.enum(PACKAGE_STATUSES).optional(),
  /** Maven's version-less metadata packages are left out unless asked for. */
  include_versionless: params.boolean().default(false),
  ...pageShape,
};

export const projectPackagesQuery = z.object({
  id: params.idOrPath(),
  order_by: z.enum(['created_at', 'name', 'version', 'type']).default('created_at'),
  ...listShape,
});

export const groupPackagesQuery = z.object({
  id: params.idOrPath(),
  order_by: z.enum(['created_at', 'name', 'version', 'type', 'project_path']).default('created_at'),
  exclude_subgroups: params.boolean().default(false),
  ...listShape,
});

export const packageParams = z.object({ id: params.idOrPath(), package_id: params.integer().pipe(z.number().positive()) });

export const packageFileParams = packageParams.extend({ package_file_id: params.integer().pipe(z.number().positive()) });
