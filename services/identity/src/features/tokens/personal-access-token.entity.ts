import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Only the SHA-256 digest of a token is stored; the token itself is shown once, at creation. */
export const PersonalAccessToken = defineEntity({
  name: 'PersonalAccessToken',
  tableName: 'personal_access_tokens',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    name: p.text(),
    tokenDigest: p.text().hidden(),
    scopes: p.array(),
    expiresAt: p.string().columnType('date').nullable(),
    revoked: p.boolean().default(false),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type PersonalAccessToken = InferEntity<typeof PersonalAccessToken>;
