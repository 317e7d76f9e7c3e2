import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const FEATURE_FLAG_VERSIONS = ['new_version_flag', 'legacy_flag'] as const;
export type FeatureFlagVersion = (typeof FEATURE_FLAG_VERSIONS)[number];

/** The strategy types GitLab offers; `svcUserList` targets the users of a user list. */
export const STRATEGY_NAMES = ['default', 'gradualRolloutUserId', 'userWithId', 'flexibleRollout', 'svcUserList'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** A project's feature flag: on or off, and for whom through its strategies. */
export const FeatureFlag = defineEntity({
  name: 'FeatureFlag',
  tableName: 'feature_flags',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    name: p.text(),
    description: p.text().nullable(),
    active: p.boolean(),
    version: p.enum(FEATURE_FLAG_VERSIONS),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type FeatureFlag = InferEntity<typeof FeatureFlag>;

/** How a new-version flag decides, with the environments (scopes) where it applies. */
export const FeatureFlagStrategy = defineEntity({
  name: 'FeatureFlagStrategy',
  tableName: 'feature_flag_strategies',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    featureFlagId: p.bigint('number'),
    name: p.enum(STRATEGY_NAMES),
    /** Strings only, as GitLab stores and Unleash reads them. */
    parameters: p.json<Record<string, string>>(),
    userListId: p.bigint('number').nullable(),
  },
});
export type FeatureFlagStrategy = InferEntity<typeof FeatureFlagStrategy>;

/** An environment scope of a strategy: `*`, an environment's name, or a glob (`review/*`). */
export const FeatureFlagScope = defineEntity({
  name: 'FeatureFlagScope',
  tableName: 'feature_flag_scopes',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    strategyId: p.bigint('number'),
    environmentScope: p.text(),
  },
});
export type FeatureFlagScope = InferEntity<typeof FeatureFlagScope>;

/** A legacy flag's scope: on or off in the environments it names, with its own strategies. */
export const FeatureFlagLegacyScope = defineEntity({
  name: 'FeatureFlagLegacyScope',
  tableName: 'feature_flag_legacy_scopes',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    featureFlagId: p.bigint('number'),
    environmentScope: p.text(),
    active: p.boolean(),
    strategies: p.json<Array<{ name: string; parameters: Record<string, string> }>>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type FeatureFlagLegacyScope = InferEntity<typeof FeatureFlagLegacyScope>;

/** Named users (`user_xids`, comma-separated) that `svcUserList` strategies target. */
export const FeatureFlagUserList = defineEntity({
  name: 'FeatureFlagUserList',
  tableName: 'feature_flag_user_lists',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    name: p.text(),
    userXids: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type FeatureFlagUserList = InferEntity<typeof FeatureFlagUserList>;

/** The project's Unleash instance id, which its applications' SDKs present. */
export const FeatureFlagsClient = defineEntity({
  name: 'FeatureFlagsClient',
  tableName: 'feature_flags_clients',
  properties: {
    projectId: p.bigint('number').primary().autoincrement(false),
    token: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type FeatureFlagsClient = InferEntity<typeof FeatureFlagsClient>;

/**
 * The revision of what a project's Unleash clients are answered: every change to its flags or
 * user lists sets it, in the change's transaction, to that transaction's id (unique, never reused).
 */
export const FeatureFlagRevision = defineEntity({
  name: 'FeatureFlagRevision',
  tableName: 'feature_flag_revisions',
  properties: {
    projectId: p.bigint('number').primary().autoincrement(false),
    revision: p.bigint('string'),
  },
});
export type FeatureFlagRevision = InferEntity<typeof FeatureFlagRevision>;
