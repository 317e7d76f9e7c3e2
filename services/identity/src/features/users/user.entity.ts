import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { renderMarkdown } from '@platform/http/markdown';

/**
 * GitLab's user states: a blocked or banned user is refused everything; a deactivated one (dormant,
 * by an administrator's choice) too, until an administrator activates them again.
 */
export const USER_STATES = ['active', 'blocked', 'deactivated', 'banned'] as const;
export type UserState = (typeof USER_STATES)[number];

/** GitLab's user types that stand for people or their automations; the others are internal (ghost, support bot...). */
export const NON_INTERNAL_USER_TYPES = ['human', 'project_bot', 'service_user', 'service_account'] as const;

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    username: p.text(),
    email: p.text(),
    name: p.text(),
    state: p.enum(USER_STATES).default('active'),
    userType: p.text().default('human'),
    isAdmin: p.boolean().default(false),
    passwordHash: p.text().nullable().hidden(),
    passwordExpiresAt: p.datetime().nullable(),
    bio: p.text().default(''),
    /** The bio as HTML, rendered on every write as GitLab caches it, so that PostgreSQL builds the views that show it. */
    bioHtml: p
      .text()
      .onCreate((user) => renderMarkdown(user.bio ?? ''))
      .onUpdate((user) => renderMarkdown(user.bio ?? '')),
    location: p.text().default(''),
    publicEmail: p.text().nullable(),
    messengerId: p.text().default(''),
    professionalProfile: p.text().default(''),
    socialHandle: p.text().default(''),
    websiteUrl: p.text().default(''),
    organization: p.text().default(''),
    jobTitle: p.text().default(''),
    note: p.text().nullable(),
    avatarUrl: p.text().nullable(),
    projectsLimit: p.integer().default(100000),
    canCreateGroup: p.boolean().default(true),
    external: p.boolean().default(false),
    privateProfile: p.boolean().default(false),
    themeId: p.integer().default(1),
    colorSchemeId: p.integer().default(1),
    twoFactorEnabled: p.boolean().default(false),
    confirmedAt: p.datetime().nullable(),
    signInCount: p.integer().default(0),
    currentSignInAt: p.datetime().nullable(),
    lastSignInAt: p.datetime().nullable(),
    currentSignInIp: p.text().nullable(),
    lastSignInIp: p.text().nullable(),
    lastActivityOn: p.string().columnType('date').nullable(),
    sharedRunnersMinutesLimit: p.integer().nullable(),
    extraSharedRunnersMinutesLimit: p.integer().nullable(),
    /** The user's personal namespace, kept by a database trigger (see the namespaces migration). */
    namespaceId: p
      .integer()
      .formula((columns) => `(select n.id from namespaces n where n.owner_id = ${columns.id} and n.kind = 'user')`)
      .nullable()
      .persist(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type User = InferEntity<typeof User>;

/** A link between a user and an external identity provider (SAML, SCIM, LDAP...). */
export const Identity = defineEntity({
  name: 'Identity',
  tableName: 'identities',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    provider: p.text(),
    externUid: p.text(),
    samlProviderId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Identity = InferEntity<typeof Identity>;
