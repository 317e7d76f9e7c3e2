import { z } from 'zod';
import { params } from '@platform/http';
import { accessLevelParam, clearableDateParam, customAttributesParam, stringList, visibilityParam } from '../access/namespace.schemas.ts';
import { FEATURE_ACCESS_LEVELS, MERGE_METHODS, PAGES_ACCESS_LEVELS, PROJECT_FEATURES, SQUASH_OPTIONS } from '../access/project.entity.ts';
import { avatarParam } from '../avatars/avatar.schemas.ts';

const text = (maximum = 255) => z.string().max(maximum);

/** GitLab's choices for the container registry cleanup policy. */
export const CADENCES = ['1d', '7d', '14d', '1month', '3month'] as const;
export const KEEP_NS = [1, 5, 10, 25, 50, 100] as const;
export const OLDER_THANS = ['7d', '14d', '30d', '60d', '90d'] as const;

const expirationPolicyParams = z.object({
  cadence: z.enum(CADENCES).optional(),
  enabled: params.boolean().optional(),
  keep_n: params
    .integer()
    .refine((value) => (KEEP_NS as readonly number[]).includes(value), { message: 'does not have a valid value' })
    .nullable()
    .optional(),
  older_than: z.enum(OLDER_THANS).nullable().optional(),
  name_regex: text().nullable().optional(),
  name_regex_delete: text().nullable().optional(),
  name_regex_keep: text().nullable().optional(),
});

const featureAccessLevels = Object.fromEntries(
  PROJECT_FEATURES.map((feature) => [`${feature}_access_level`, z.enum(FEATURE_ACCESS_LEVELS).optional()]),
) as Record<
  `${(typeof PROJECT_FEATURES)[number]}_access_level`,
  z.ZodOptional<z.ZodEnum<{ [K in (typeof FEATURE_ACCESS_LEVELS)[number]]: K }>>
>;

/** The attributes `POST /projects` and `PUT /projects/:id` share. */
const projectAttributes = {
  description: text(2000).nullable().optional(),
  avatar: avatarParam().optional(),
  visibility: visibilityParam().optional(),
  default_branch: text().optional(),
  topics: stringList().optional(),
  tag_list: stringList().optional(),
  issues_enabled: params.boolean().optional(),
  merge_requests_enabled: params.boolean().optional(),
  wiki_enabled: params.boolean().optional(),
  jobs_enabled: params.boolean().optional(),
  snippets_enabled: params.boolean().optional(),
  container_registry_enabled: params.boolean().optional(),
  ...featureAccessLevels,
  pages_access_level: z.enum(PAGES_ACCESS_LEVELS).optional(),
  request_access_enabled: params.boolean().optional(),
  shared_runners_enabled: params.boolean().optional(),
  lfs_enabled: params.boolean().optional(),
  packages_enabled: params.boolean().optional(),
  public_jobs: params.boolean().optional(),
  public_builds: params.boolean().optional(),
  emails_disabled: params.boolean().optional(),
  emails_enabled: params.boolean().optional(),
  resolve_outdated_diff_discussions: params.boolean().optional(),
  only_allow_merge_if_pipeline_succeeds: params.boolean().optional(),
  allow_merge_on_skipped_pipeline: params.boolean().optional(),
  only_allow_merge_if_all_discussions_are_resolved: params.boolean().optional(),
  remove_source_branch_after_merge: params.boolean().optional(),
  printing_merge_request_link_enabled: params.boolean().optional(),
  merge_method: z.enum(MERGE_METHODS).optional(),
  squash_option: z.enum(SQUASH_OPTIONS).optional(),
  ci_config_path: text().nullable().optional(),
  container_expiration_policy_attributes: expirationPolicyParams.optional(),
};

export const createProjectParams = z
  .object({
    name: text().optional(),
    path: text().optional(),
    namespace_id: params.integer().optional(),
    ...projectAttributes,
  })
  .superRefine((input, context) => {
    if (input.name === undefined && input.path === undefined) {
      // Grape names both: `name, path are missing, at least one parameter must be provided`.
      context.addIssue({ code: 'custom', path: ['name, path'], message: 'are missing, at least one parameter must be provided' });
    }
  });
export type CreateProjectParams = z.output<typeof createProjectParams>;

/** GitLab's `POST /projects/:id/fork`: where the fork goes (`namespace` is the deprecated id-or-path), its name and path. */
export const forkProjectParams = z.object({
  id: params.idOrPath(),
  namespace_id: params.integer().optional(),
  namespace_path: text().optional(),
  namespace: z.union([params.integer(), text()]).optional(),
  name: text().optional(),
  path: text().optional(),
  description: text().optional(),
  visibility: visibilityParam().optional(),
  branches: text().optional(),
  mr_default_target_self: params.boolean().optional(),
});
export type ForkProjectParams = z.output<typeof forkProjectParams>;

export const updateProjectParams = z.object({
  id: params.idOrPath(),
  name: text().optional(),
  path: text().optional(),
  ...projectAttributes,
});
export type UpdateProjectParams = z.output<typeof updateProjectParams>;
export type ProjectAttributeParams = Omit<UpdateProjectParams, 'id' | 'name' | 'path'>;

export const PROJECT_LIST_ORDERS = [
  'id',
  'name',
  'path',
  'created_at',
  'updated_at',
  'last_activity_at',
  'similarity',
  'star_count',
] as const;

/** Filters every project list takes. */
const projectListShape = {
  archived: params.boolean().optional(),
  visibility: visibilityParam().optional(),
  search: text().optional(),
  simple: params.boolean().optional(),
  starred: params.boolean().optional(),
  with_issues_enabled: params.boolean().optional(),
  with_merge_requests_enabled: params.boolean().optional(),
  min_access_level: accessLevelParam().optional(),
  with_custom_attributes: params.boolean().optional(),
};

/** `GET /projects`. */
export const projectListQuery = z.object({
  ...projectListShape,
  owned: params.boolean().optional(),
  membership: params.boolean().optional(),
  search_namespaces: params.boolean().optional(),
  topic: stringList().optional(),
  id_after: params.integer().optional(),
  id_before: params.integer().optional(),
  last_activity_after: params.datetime().optional(),
  last_activity_before: params.datetime().optional(),
  custom_attributes: customAttributesParam().optional(),
});

/** `GET /users/:user_id/projects`: the `/projects` list of a user's personal namespace, the user by id or username. */
export const userProjectListQuery = projectListQuery.extend({ user_id: z.string().max(255) });
export type ProjectListQuery = z.output<typeof projectListQuery>;

/** `order_by` of `GET /groups/:id/projects`. */
export const GROUP_PROJECT_ORDERS = ['id', 'name', 'path', 'created_at', 'updated_at', 'similarity', 'last_activity_at'] as const;

/** `GET /groups/:id/projects`. */
export const groupProjectListQuery = z.object({
  ...projectListShape,
  id: params.idOrPath(),
  owned: params.boolean().optional(),
  with_shared: params.boolean().optional(),
  include_subgroups: params.boolean().optional(),
  with_security_reports: params.boolean().optional(),
});

/** `order_by` of `GET /groups/:id/projects/shared`: no similarity. */
export const SHARED_PROJECT_ORDERS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;

/** `GET /groups/:id/projects/shared`: no `owned`, `with_shared` or `include_subgroups`. */
export const sharedProjectListQuery = z.object({
  ...projectListShape,
  id: params.idOrPath(),
});

export const projectQuery = z.object({
  id: params.idOrPath(),
  with_custom_attributes: params.boolean().optional(),
  statistics: params.boolean().optional(),
  license: params.boolean().optional(),
});

export const shareProjectParams = z.object({
  id: params.idOrPath(),
  group_id: params.integer(),
  group_access: accessLevelParam(),
  expires_at: clearableDateParam().optional(),
});

export const unshareProjectParams = z.object({ id: params.idOrPath(), group_id: params.integer() });

/** `DELETE /projects/:id`: a project already marked for deletion goes at once with `permanently_remove` and its `full_path`. */
export const deleteProjectParams = z.object({
  id: params.idOrPath(),
  permanently_remove: params.boolean().optional(),
  full_path: z.string().max(2048).optional(),
});
