import { z } from 'zod';
import { params } from '@platform/http';

const text = (maximum = 255) => z.string().max(maximum);

/** `POST /users`, as GitLab's Grape API declares it. */
export const createUserParams = z
  .object({
    email: text(),
    name: text(),
    username: text(),
    password: z.string().max(128).optional(),
    reset_password: params.boolean().optional(),
    force_random_password: params.boolean().optional(),
    admin: params.boolean().optional(),
    bio: text(2000).optional(),
    can_create_group: params.boolean().optional(),
    color_scheme_id: params.integer().optional(),
    extern_uid: text().optional(),
    provider: text().optional(),
    external: params.boolean().optional(),
    group_id_for_saml: params.integer().optional(),
    location: text().optional(),
    note: text(2000).optional(),
    organization: text().optional(),
    private_profile: params.boolean().nullable().optional(),
    projects_limit: params.integer().optional(),
    public_email: text().optional(),
    skip_confirmation: params.boolean().optional(),
    messenger_id: text().optional(),
    professional_profile: text().optional(),
    social_handle: text().optional(),
    website_url: text().optional(),
    job_title: text().optional(),
    theme_id: params.integer().optional(),
    shared_runners_minutes_limit: params.integer().nullable().optional(),
    extra_shared_runners_minutes_limit: params.integer().nullable().optional(),
  })
  .superRefine((input, context) => {
    if (input.password === undefined && !input.reset_password && !input.force_random_password) {
      context.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'reset_password, force_random_password are missing, at least one parameter must be provided',
      });
    }
    if ((input.extern_uid === undefined) !== (input.provider === undefined)) {
      context.addIssue({ code: 'custom', path: ['extern_uid'], message: 'and provider must be given together' });
    }
  });
export type CreateUserParams = z.output<typeof createUserParams>;

export const userIdParams = z.object({ id: params.integer() });
export const singleUserQuery = z.object({ with_custom_attributes: params.boolean().optional() });
