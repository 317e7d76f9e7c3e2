import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An SSH key that reads (or, where enabled with `can_push`, writes) the repositories of the projects it is enabled on. */
export const DeployKey = defineEntity({
  name: 'DeployKey',
  tableName: 'deploy_keys',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** Who added it; null for an instance key's creator gone. */
    userId: p.integer().nullable(),
    title: p.text(),
    key: p.text(),
    fingerprintMd5: p.text(),
    fingerprintSha256: p.text(),
    /** An instance key, which any maintainer may enable on their projects. */
    public: p.boolean().default(false),
    expiresAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type DeployKey = InferEntity<typeof DeployKey>;

/** A deploy key enabled on a project, with or without write access there. */
export const DeployKeyProject = defineEntity({
  name: 'DeployKeyProject',
  tableName: 'deploy_keys_projects',
  properties: {
    id: p.integer().primary().autoincrement(),
    deployKeyId: p.integer(),
    projectId: p.integer(),
    canPush: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type DeployKeyProject = InferEntity<typeof DeployKeyProject>;
