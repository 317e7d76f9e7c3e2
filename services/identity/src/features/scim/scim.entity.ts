import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A group's SCIM token; only the SHA-256 digest of the token is stored. */
export const ScimToken = defineEntity({
  name: 'ScimToken',
  tableName: 'scim_tokens',
  properties: {
    id: p.integer().primary().autoincrement(),
    groupId: p.integer(),
    tokenDigest: p.text().hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ScimToken = InferEntity<typeof ScimToken>;

/**
 * A user the group's identity provider provisioned, under the identity provider's external UID.
 * While `active` and confirmed, the user also has a `group_saml` identity and a membership of the
 * group. `provisionedUser` says the provider created the user, and only then may it change their
 * profile; an account that existed before is linked only once its owner confirms (`linkConfirmedAt`).
 */
export const ScimIdentity = defineEntity({
  name: 'ScimIdentity',
  tableName: 'scim_identities',
  properties: {
    id: p.integer().primary().autoincrement(),
    groupId: p.integer(),
    userId: p.integer(),
    externUid: p.text(),
    active: p.boolean().default(true),
    provisionedUser: p.boolean().default(false),
    linkConfirmedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ScimIdentity = InferEntity<typeof ScimIdentity>;
