import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Visibility levels in increasing order of exposure; a child never exceeds its parent. */
export const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

export const PROJECT_CREATION_LEVELS = ['noone', 'maintainer', 'developer'] as const;
export const SUBGROUP_CREATION_LEVELS = ['owner', 'maintainer'] as const;

/**
 * A group (kind 'group') or a user's personal namespace (kind 'user'), as in GitLab, where a
 * group's id is its namespace id. `traversalIds` runs from the top-level namespace down to this one.
 */
export const Namespace = defineEntity({
  name: 'Namespace',
  tableName: 'namespaces',
  properties: {
    id: p.integer().primary().autoincrement(),
    kind: p.enum(['user', 'group'] as const),
    name: p.text(),
    path: p.text(),
    fullPath: p.text(),
    parentId: p.integer().nullable(),
    traversalIds: p.array(Number).columnType('integer[]'),
    ownerId: p.integer().nullable(),
    description: p.text().default(''),
    visibility: p.enum(VISIBILITIES).default('private'),
    shareWithGroupLock: p.boolean().default(false),
    requireTwoFactorAuthentication: p.boolean().default(false),
    twoFactorGracePeriod: p.integer().default(48),
    projectCreationLevel: p.enum(PROJECT_CREATION_LEVELS).default('developer'),
    subgroupCreationLevel: p.enum(SUBGROUP_CREATION_LEVELS).default('maintainer'),
    autoDevopsEnabled: p.boolean().nullable(),
    emailsDisabled: p.boolean().default(false),
    mentionsDisabled: p.boolean().default(false),
    lfsEnabled: p.boolean().default(true),
    defaultBranchProtection: p.integer().default(2),
    requestAccessEnabled: p.boolean().default(true),
    avatarUrl: p.text().nullable(),
    fileTemplateProjectId: p.integer().nullable(),
    runnersToken: p.text().nullable().hidden(),
    storageSize: p.bigint('number').defaultRaw('0'),
    repositorySize: p.bigint('number').defaultRaw('0'),
    wikiSize: p.bigint('number').defaultRaw('0'),
    lfsObjectsSize: p.bigint('number').defaultRaw('0'),
    jobArtifactsSize: p.bigint('number').defaultRaw('0'),
    packagesSize: p.bigint('number').defaultRaw('0'),
    snippetsSize: p.bigint('number').defaultRaw('0'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Namespace = InferEntity<typeof Namespace>;

/** A namespace known to be a group. */
export type Group = Namespace & { kind: 'group' };
