import { z } from 'zod';
import { params } from '@platform/http';
import { avatarParam } from '../avatars/avatar.schemas.ts';

const text = (maximum = 255) => z.string().max(maximum);

/** Attributes `POST /users` and `PUT /users/:id` share, as GitLab's Grape API declares them. */
const userAttributes = {
  avatar: avatarParam().optional(),
  admin: params.boolean().optional(),
  bio: text().optional(),
  can_create_group: params.boolean().optional(),
  color_scheme_id: params.integer().optional(),
  extern_uid: text().optional(),
  provider: text().optional(),
  external: params.boolean().optional(),
  group_id_for_saml: params.integer().optional(),
  location: text().optional(),
  note: text(2000).optional(),
  organization: text().optional(),
  // GitLab turns an explicit null into the default, false.
  private_profile: params.boolean().nullable().optional(),
  projects_limit: params.integer().optional(),
  public_email: text().optional(),
  messenger_id: text().optional(),
  professional_profile: text().optional(),
  social_handle: text().optional(),
  website_url: text().optional(),
  job_title: text().optional(),
  theme_id: params.integer().optional(),
  shared_runners_minutes_limit: params.integer().nullable().optional(),
  extra_shared_runners_minutes_limit: params.integer().nullable().optional(),
};

function externUidWithProvider(input: { extern_uid?: string; provider?: string }, context: z.RefinementCtx): void {
  if ((input.extern_uid === undefined) !== (input.provider === undefined)) {
    context.addIssue({ code: 'custom', path: ['extern_uid, provider'], message: 'provide all or none of parameters' });
  }
}

/** `POST /users`. */
export const createUserParams = z
  .object({
    email: text(),
    name: text(),
    username: text(),
    password: z.string().max(128).optional(),
    reset_password: params.boolean().optional(),
    force_random_password: params.boolean().optional(),
    skip_confirmation: params.boolean().optional(),
    ...userAttributes,
  })
  .superRefine((input, context) => {
    if (input.password === undefined && !input.reset_password && !input.force_random_password) {
      context.addIssue({
        code: 'custom',
        path: ['password, reset_password, force_random_password'],
        message: 'are missing, at least one parameter must be provided',
      });
    }
    externUidWithProvider(input, context);
  });
export type CreateUserParams = z.output<typeof createUserParams>;

/** `PUT /users/:id`: every field optional, no password flags. */
export const updateUserParams = z
  .object({
    id: params.integer(),
    email: text().optional(),
    name: text().optional(),
    username: text().optional(),
    password: z.string().max(128).optional(),
    skip_reconfirmation: params.boolean().optional(),
    ...userAttributes,
  })
  .superRefine(externUidWithProvider);
export type UpdateUserParams = z.output<typeof updateUserParams>;

export const USER_ORDER_FIELDS = ['id', 'name', 'username', 'created_at', 'updated_at'] as const;

/** `GET /users`. Boolean filters act only when true, as in GitLab. */
export const listUsersParams = z
  .object({
    search: text().optional(),
    username: text().optional(),
    active: params.boolean().optional(),
    blocked: params.boolean().optional(),
    external: params.boolean().optional(),
    exclude_internal: params.boolean().optional(),
    without_projects: params.boolean().optional(),
    extern_uid: text().optional(),
    provider: text().optional(),
    created_before: params.datetime().optional(),
    created_after: params.datetime().optional(),
    custom_attributes: z.record(text(), text()).optional(),
    with_custom_attributes: params.boolean().optional(),
    order_by: z.enum(USER_ORDER_FIELDS).optional(),
    sort: z.enum(['asc', 'desc']).optional(),
    two_factor: z.enum(['enabled', 'disabled']).optional(),
  })
  .superRefine(externUidWithProvider);
export type ListUsersParams = z.output<typeof listUsersParams>;

export const userIdParams = z.object({ id: params.integer() });
export const singleUserParams = z.object({ id: params.integer(), with_custom_attributes: params.boolean().optional() });
export const deleteUserParams = z.object({ id: params.integer(), hard_delete: params.boolean().optional() });
export const deleteIdentityParams = z.object({ id: params.integer(), provider: text() });
