import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** GitLab's deployment tiers, guessed from an environment's name unless given. */
export const ENVIRONMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const;
export type EnvironmentTier = (typeof ENVIRONMENT_TIERS)[number];

export const ENVIRONMENT_STATES = ['available', 'stopping', 'stopped'] as const;
export type EnvironmentState = (typeof ENVIRONMENT_STATES)[number];

/** Where a project deploys to (`production`, `review/fix-login`); created by its first deployment or by the API. */
export const Environment = defineEntity({
  name: 'Environment',
  tableName: 'environments',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    name: p.text(),
    /** The name made safe for URLs and DNS labels, as GitLab derives it. */
    slug: p.text(),
    externalUrl: p.text().nullable(),
    tier: p.enum(ENVIRONMENT_TIERS),
    state: p.enum(ENVIRONMENT_STATES),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Environment = InferEntity<typeof Environment>;
