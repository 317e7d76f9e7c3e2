import { z } from 'zod';
import { params } from '@platform/http';
import { PACKAGE_STATUSES } from './package.entity.ts';

/** Every format GitLab names in `package_type`; this registry holds npm, Maven and generic packages. */
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

const listFilters = {
  package_type: PACKAGE_TYPE_FILTER.optional(),
  package_name: z.string().max(255).optional(),
  /** Only packages in this state; without it, the displayable ones (`default`, `error`). */
  status: z.enum(PACKAGE_STATUSES).optional(),
  /** Maven's version-less metadata packages are left out unless asked for. */
  include_versionless: params.boolean().default(false),
};

export const PROJECT_PACKAGE_ORDERS = ['created_at', 'name', 'version', 'type'] as const;
export const GROUP_PACKAGE_ORDERS = [...PROJECT_PACKAGE_ORDERS, 'project_path'] as const;
export const PACKAGE_FILE_ORDERS = ['id', 'file_name', 'created_at'] as const;

export const projectPackagesQuery = z.object({ id: params.idOrPath(), ...listFilters });

export const groupPackagesQuery = z.object({
  id: params.idOrPath(),
  exclude_subgroups: params.boolean().default(false),
  ...listFilters,
});

export const packageParams = z.object({ id: params.idOrPath(), package_id: params.integer().pipe(z.number().positive()) });

export const packageFileParams = packageParams.extend({ package_file_id: params.integer().pipe(z.number().positive()) });
