import { z } from 'zod';
import { params } from '@platform/http';

export const scimGroupPathParams = z.object({ group_path: z.string().min(1).max(2048) });
export const scimUserPathParams = scimGroupPathParams.extend({ id: z.string().min(1).max(255) });

/** `GET /Users`: SCIM paging with `startIndex` (1-based) and `count`. */
export const listScimUsersQuery = z.object({
  filter: z.string().max(1024).optional(),
  startIndex: params.integer().optional(),
  count: params.integer().optional(),
});
export type ListScimUsersQuery = z.output<typeof listScimUsersQuery>;

const scimBoolean = z.preprocess(
  (value) => (typeof value === 'string' && /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : value),
  z.boolean(),
);

const text = z.string().trim().min(1).max(255);

/** `POST /Users`: the RFC 7643 User attributes this service keeps; `schemas`, `meta` and others are ignored. */
export const createScimUserBody = z.object({
  externalId: text,
  userName: text,
  emails: z
    .array(z.object({ value: z.string().trim().min(1).max(255), type: z.string().optional(), primary: scimBoolean.optional() }))
    .min(1),
  name: z.object({
    formatted: z.string().max(255).optional(),
    givenName: z.string().max(255).optional(),
    familyName: z.string().max(255).optional(),
  }),
  active: scimBoolean.nullable().optional(),
});
export type CreateScimUserBody = z.output<typeof createScimUserBody>;

/** `PATCH /Users/:id`: RFC 7644 PatchOp; what each operation means is decided in scim-patch.ts. */
export const patchScimUserBody = z.object({
  Operations: z.array(z.object({ op: z.string().min(1), path: z.string().max(1024).optional(), value: z.unknown() })).min(1),
});

/** `/user/scim_links/:group_id`: the group whose identity provider asked to link the caller's account. */
export const scimLinkParams = z.object({ group_id: params.integer().pipe(z.number().int().positive()) });
