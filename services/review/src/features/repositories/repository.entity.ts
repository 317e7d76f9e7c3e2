import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A project's bare git repository: on which storage, where below it, and whether it takes pushes. */
export const Repository = defineEntity({
  name: 'Repository',
  tableName: 'repositories',
  properties: {
    projectId: p.bigint('number').primary().autoincrement(false),
    storage: p.text(),
    /** Relative to the storage's directory: `@hashed/ab/cd/<sha256 of the project id>.git`, as GitLab lays repositories out. */
    diskPath: p.text(),
    /** Set while the repository must not change (a storage move); pushes are refused. */
    readOnly: p.boolean().default(false),
    createdAt: p.datetime(),
    pushedAt: p.datetime().nullable(),
  },
});
export type Repository = InferEntity<typeof Repository>;
