import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** GitLab's states of a repository storage move. */
export const STORAGE_MOVE_STATES = ['initial', 'scheduled', 'started', 'replicated', 'finished', 'failed', 'cleanup failed'] as const;
export type StorageMoveState = (typeof STORAGE_MOVE_STATES)[number];

/** A project's repository moving from one storage to another; a `storageMoveJob` carries it out. */
export const RepositoryStorageMove = defineEntity({
  name: 'RepositoryStorageMove',
  tableName: 'repository_storage_moves',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    state: p.text().$type<StorageMoveState>(),
    sourceStorageName: p.text(),
    destinationStorageName: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Why a move failed, for the logs and operators; not shown by the API, as GitLab's. */
    failureReason: p.text().nullable(),
  },
});
export type RepositoryStorageMove = InferEntity<typeof RepositoryStorageMove>;
