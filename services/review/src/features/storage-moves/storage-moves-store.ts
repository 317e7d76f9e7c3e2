import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { reviewEvents } from '@platform/review-client';
import { enqueueJob } from '@platform/service';
import { Repository } from '../repositories/repository.entity.ts';
import { RepositoryStorageMove, type StorageMoveState } from './repository-storage-move.entity.ts';
import { storageMoveJob } from './storage-moves.jobs.ts';

/** The states a worker still has something to do in. */
export const PENDING_STATES: StorageMoveState[] = ['scheduled', 'started', 'replicated'];

const TRANSITION_EVENTS = {
  scheduled: reviewEvents.storageMoveScheduled,
  started: reviewEvents.storageMoveStarted,
  replicated: reviewEvents.storageMoveReplicated,
  finished: reviewEvents.storageMoveFinished,
  failed: reviewEvents.storageMoveFailed,
  'cleanup failed': reviewEvents.storageMoveCleanupFailed,
} as const;

type TransitionState = keyof typeof TRANSITION_EVENTS;

function recordTransition(em: EntityManager, move: RepositoryStorageMove, actor: EventActor | null): void {
  const data = {
    projectId: move.projectId,
    moveId: move.id,
    state: move.state,
    sourceStorageName: move.sourceStorageName,
    destinationStorageName: move.destinationStorageName,
  };
  recordEvent(em, { ...TRANSITION_EVENTS[move.state as TransitionState].event({ aggregateId: move.projectId, data }), actor });
}

/** A move to schedule: the repository's project, and the storage it goes to. */
export interface MoveRequest {
  projectId: number;
  destinationStorageName: string;
}

/** Why a move could not be scheduled, as GitLab's validation names it. */
export type ScheduleRefusal = 'missing' | 'read-only';

export interface StorageMoveStore {
  /**
   * Schedules the move in the caller's transaction: the repository becomes read-only, the move
   * `scheduled` and its job queued. A repository already read-only (moving) or missing is refused.
   */
  schedule(request: MoveRequest, actor: EventActor | null): Promise<{ move: RepositoryStorageMove } | { refused: ScheduleRefusal }>;
  /** The ids of the projects whose repositories live on `storage` and are writable. */
  projectsOn(storage: string): Promise<number[]>;
  find(id: number, projectId?: number): Promise<RepositoryStorageMove | null>;
  /** Newest first. */
  list(window: { offset: number; limit: number }, projectId?: number): Promise<{ items: RepositoryStorageMove[]; total: number }>;
  /** Each change of a move (`transition`, `switchStorage`, `fail`) records its event in the caller's transaction. */
  transition(move: RepositoryStorageMove, state: 'started' | 'finished' | 'cleanup failed'): Promise<RepositoryStorageMove>;
  /** The copy is verified: the repository now lives on the destination and takes pushes again; the move is `replicated`. */
  switchStorage(move: RepositoryStorageMove): Promise<RepositoryStorageMove>;
  /** The move failed before the switch: the repository stays where it was and takes pushes again. */
  fail(move: RepositoryStorageMove, reason: string): Promise<RepositoryStorageMove>;
}

export class PgStorageMoveStore implements StorageMoveStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async schedule(request: MoveRequest, actor: EventActor | null): Promise<{ move: RepositoryStorageMove } | { refused: ScheduleRefusal }> {
    const em = this.#em;
    const repository = await em.findOne(Repository, { projectId: request.projectId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!repository) return { refused: 'missing' as const };
    if (repository.readOnly) return { refused: 'read-only' as const };
    repository.readOnly = true;
    const now = new Date();
    const move = em.create(RepositoryStorageMove, {
      projectId: request.projectId,
      state: 'scheduled',
      sourceStorageName: repository.storage,
      destinationStorageName: request.destinationStorageName,
      createdAt: now,
      updatedAt: now,
      failureReason: null,
    });
    // The id goes into the event and the job.
    await em.flush();
    recordTransition(em, move, actor);
    enqueueJob(em, storageMoveJob, { moveId: move.id });
    return { move };
  }

  async projectsOn(storage: string): Promise<number[]> {
    // Ids only: no partly loaded repository joins the unit of work that schedules their moves.
    const rows = await this.#em.execute<Array<{ project_id: string }>>(
      'select project_id from repositories where storage = ? and read_only = false order by project_id',
      [storage],
    );
    return rows.map((row) => Number(row.project_id));
  }

  find(id: number, projectId?: number): Promise<RepositoryStorageMove | null> {
    return this.#em.findOne(RepositoryStorageMove, { id, ...(projectId === undefined ? {} : { projectId }) });
  }

  async list(window: { offset: number; limit: number }, projectId?: number) {
    const [items, total] = await this.#em.findAndCount(RepositoryStorageMove, projectId === undefined ? {} : { projectId }, {
      orderBy: { id: 'desc' },
      offset: window.offset,
      limit: window.limit,
    });
    return { items, total };
  }

  async transition(move: RepositoryStorageMove, state: 'started' | 'finished' | 'cleanup failed'): Promise<RepositoryStorageMove> {
    const em = this.#em;
    const current = await em.findOneOrFail(RepositoryStorageMove, { id: move.id });
    current.state = state;
    current.updatedAt = new Date();
    recordTransition(em, current, null);
    return current;
  }

  async switchStorage(move: RepositoryStorageMove): Promise<RepositoryStorageMove> {
    const em = this.#em;
    await em.nativeUpdate(Repository, { projectId: move.projectId }, { storage: move.destinationStorageName, readOnly: false });
    const current = await em.findOneOrFail(RepositoryStorageMove, { id: move.id });
    current.state = 'replicated';
    current.updatedAt = new Date();
    recordTransition(em, current, null);
    const { projectId } = move;
    const data = { projectId, storage: move.destinationStorageName };
    recordEvent(em, { ...reviewEvents.repositoryStorageChanged.event({ aggregateId: projectId, data }), actor: null });
    return current;
  }

  async fail(move: RepositoryStorageMove, reason: string): Promise<RepositoryStorageMove> {
    const em = this.#em;
    await em.nativeUpdate(Repository, { projectId: move.projectId }, { readOnly: false });
    const current = await em.findOneOrFail(RepositoryStorageMove, { id: move.id });
    current.state = 'failed';
    current.updatedAt = new Date();
    current.failureReason = reason;
    recordTransition(em, current, null);
    return current;
  }
}
