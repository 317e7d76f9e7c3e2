import { z } from 'zod';
import { params, integerList } from '@platform/http';
import { PROJECT_CREATION_LEVELS, SUBGROUP_CREATION_LEVELS } from '../access/namespace.entity.ts';
import { accessLevelParam, clearableDateParam, customAttributesParam, visibilityParam } from '../access/namespace.schemas.ts';
import {} from './groups-store.ts';
import { avatarParam } from '../avatars/avatar.schemas.ts';

const text = (maximum = 255) => z.string().max(maximum);

/** The attributes `POST /groups` and `PUT /groups/:id` share. */
const groupAttributes = {
  description: text(2000).optional(),
  avatar: avatarParam().optional(),
  visibility: visibilityParam().optional(),
  share_with_group_lock: params.boolean().optional(),
  require_two_factor_authentication: params.boolean().optional(),
  two_factor_grace_period: params
    .integer()
    .refine((value) => value >= 0, { message: 'must be greater than or equal to 0' })
    .optional(),
  project_creation_level: z.enum(PROJECT_CREATION_LEVELS).optional(),
  auto_devops_enabled: params.boolean().optional(),
  subgroup_creation_level: z.enum(SUBGROUP_CREATION_LEVELS).optional(),
  emails_disabled: params.boolean().optional(),
  emails_enabled: params.boolean().optional(),
  mentions_disabled: params.boolean().optional(),
  lfs_enabled: params.boolean().optional(),
  request_access_enabled: params.boolean().optional(),
  default_branch_protection: params
    .integer()
    .refine((value) => value >= 0 && value <= 4, { message: 'does not have a valid value' })
    .optional(),
};

export const createGroupParams = z.object({
  name: text(),
  path: text(),
  parent_id: params.integer().optional(),
  ...groupAttributes,
});
export type CreateGroupParams = z.output<typeof createGroupParams>;

export const updateGroupParams = z.object({
  id: params.idOrPath(),
  name: text().optional(),
  path: text().optional(),
  ...groupAttributes,
});
export type UpdateGroupParams = z.output<typeof updateGroupParams>;

/** `PUT /groups/:id/avatar` as @gitbeaker/rest sends it: the image as `file` (required once access is settled). */
export const groupAvatarUploadParams = z.object({ id: params.idOrPath(), file: params.file().optional() });
export type GroupAttributeParams = Omit<UpdateGroupParams, 'id' | 'name' | 'path'>;

/** `GET /groups`; the sub-lists take the same except `top_level_only`. */
export const groupListQuery = z.object({
  skip_groups: integerList().optional(),
  all_available: params.boolean().optional(),
  search: text().optional(),
  statistics: params.boolean().optional(),
  with_custom_attributes: params.boolean().optional(),
  owned: params.boolean().optional(),
  min_access_level: accessLevelParam().optional(),
  top_level_only: params.boolean().optional(),
  custom_attributes: customAttributesParam().optional(),
});
export type GroupListQuery = z.output<typeof groupListQuery>;

export const subgroupListQuery = groupListQuery.omit({ top_level_only: true }).extend({ id: params.idOrPath() });

export const groupQuery = z.object({
  id: params.idOrPath(),
  with_custom_attributes: params.boolean().optional(),
  with_projects: params.boolean().optional(),
});

export const shareGroupParams = z.object({
  id: params.idOrPath(),
  group_id: params.integer(),
  group_access: accessLevelParam(),
  expires_at: clearableDateParam().optional(),
});

export const unshareGroupParams = z.object({ id: params.idOrPath(), group_id: params.integer() });
