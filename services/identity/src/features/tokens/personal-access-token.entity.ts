import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Only the SHA-256 digest of a token is stored; the token itself is shown once, at creation. */
export const PersonalAccessToken = defineEntity({
  name: 'PersonalAccessToken',
  tableName: 'personal_access_tokens',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    name: p.text(),
    description: p.text().nullable(),
    tokenDigest: p.text().hidden(),
    scopes: p.array(),
    expiresAt: p.string().columnType('date').nullable(),
    revoked: p.boolean().default(false),
    /** An administrator's token acting as the user, never shown to them. */
    impersonation: p.boolean().default(false),
    /** A project or group access token's resource; its user is the token's bot. */
    resourceType: p.enum(['project', 'group'] as const).nullable(),
    resourceId: p.integer().nullable(),
    /** The role the token was given in its resource. */
    accessLevel: p.integer().nullable(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type PersonalAccessToken = InferEntity<typeof PersonalAccessToken>;
