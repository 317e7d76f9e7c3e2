import { sql, type Kysely } from 'kysely';
import { readPage, type EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { insertWithEvent, recordEvent } from '@platform/events/database';
import { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import { mergeRequestConditions, mergeRequestOrder } from './merge-requests-read-model.ts';
import { nextIid } from '../../project-iids.ts';
import type { Presence } from '../core/label-filter.ts';

/** What the merge request lists filter on; each field is optional and they all apply together. */
export interface MergeRequestFilter {
  projectIds?: number[];
  ids?: number[];
  /** Merge requests of projects in this group or its subgroups. */
  groupId?: number;
  iids?: number[];
  /** Merge requests left out by id (those reacted to). */
  notIds?: number[];
  states?: string[];
  authorId?: number;
  notAuthorId?: number;
  assignee?: Presence<number>;
  notAssigneeId?: number;
  reviewer?: Presence<number>;
  /** Assigned to or reviewed by: GitLab's `scope=assigned_to_me` counts both only in `/user_counts`. */
  involvedUserId?: number;
  labels?: Presence<string[]>;
  notLabels?: string[];
  /** Milestones by id: a title names one milestone per project. */
  milestone?: Presence<number[]>;
  /** Merge requests without any of these milestones (those without a milestone included). */
  notMilestoneIds?: number[];
  sourceBranch?: string;
  targetBranch?: string;
  search?: { text: string; inTitle: boolean; inDescription: boolean };
  draft?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
}

export interface MergeRequestOrder {
  by: 'created_at' | 'updated_at' | 'title';
  direction: 'asc' | 'desc';
}

export type NewMergeRequest = Omit<MergeRequest, 'id' | 'iid'>;

/** Merge requests' rows, in the unit of work (and the transaction) the service opened. */
export interface MergeRequestStore {
  /** Adds the merge request with the project's next iid and its created event. */
  create(options: {
    mergeRequest: NewMergeRequest;
    event: (created: MergeRequest) => OutgoingEvent;
    actor: EventActor | null;
  }): Promise<MergeRequest>;
  find(projectId: number, iid: number): Promise<MergeRequest | null>;
  findOpen(options: {
    projectId: number;
    sourceProjectId: number;
    sourceBranch: string;
    targetBranch: string;
  }): Promise<MergeRequest | null>;
  /** Open merge requests whose source (by project and branch) or target (by project and branch) is one of these. */
  openBySource(sourceProjectId: number, branches: string[]): Promise<MergeRequest[]>;
  openByTarget(projectId: number, branches: string[]): Promise<MergeRequest[]>;
  /** Open merge requests from the fork `sourceProjectId` into other projects. */
  openFromFork(sourceProjectId: number): Promise<MergeRequest[]>;
  /** Writes the changes and the events they caused. */
  save(options: { mergeRequest: MergeRequest; events: OutgoingEvent[]; actor: EventActor | null }): Promise<void>;
  list(options: {
    filter: MergeRequestFilter;
    order: MergeRequestOrder;
    offset: number;
    limit: number;
  }): Promise<{ items: MergeRequest[]; total: number }>;
  addVersion(version: Omit<MergeRequestDiff, 'id'>): Promise<MergeRequestDiff>;
  /** Newest first. */
  versions(mergeRequestId: number): Promise<MergeRequestDiff[]>;
  delete(id: number): Promise<void>;
  /**
   * Adds `seconds` (negative subtracts) to the time spent, or resets it, and records the update event;
   * null, changing nothing, when the total would fall below zero.
   */
  spendTime(options: {
    id: number;
    /** `reset` takes all time spent back. */
    seconds: number | 'reset';
    event: (changed: MergeRequest) => OutgoingEvent;
    actor: EventActor;
  }): Promise<MergeRequest | null>;
  /**
   * Marks a rebase of the open merge request as running, unless one that began after `staleBefore`
   * runs already: false then (or when it is not open). Atomic, so that two callers never both start.
   */
  startRebase(options: { id: number; now: Date; staleBefore: Date }): Promise<boolean>;
  /** Marks the rebase as over, with `mergeError` when it failed (null when it succeeded). */
  finishRebase(options: { id: number; mergeError: string | null }): Promise<void>;
  /** Every user some merge request names as author, assignee or reviewer: where usernames are looked for. */
  involvedUserIds(): Promise<number[]>;
}

export class PgMergeRequestStore implements MergeRequestStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async create(options: {
    mergeRequest: NewMergeRequest;
    event: (created: MergeRequest) => OutgoingEvent;
    actor: EventActor | null;
  }): Promise<MergeRequest> {
    const iid = await nextIid(this.#em, 'merge_requests', options.mergeRequest.projectId);
    return insertWithEvent(this.#em, MergeRequest, { ...options.mergeRequest, iid } as MergeRequest, options);
  }

  find(projectId: number, iid: number): Promise<MergeRequest | null> {
    return this.#em.findOne(MergeRequest, { projectId, iid });
  }

  findOpen(options: {
    projectId: number;
    sourceProjectId: number;
    sourceBranch: string;
    targetBranch: string;
  }): Promise<MergeRequest | null> {
    return this.#em.findOne(MergeRequest, { ...options, state: 'opened' }, { orderBy: { iid: 'asc' } });
  }

  openBySource(sourceProjectId: number, branches: string[]): Promise<MergeRequest[]> {
    return this.#em.find(MergeRequest, { sourceProjectId, sourceBranch: { $in: branches }, state: 'opened' });
  }

  openByTarget(projectId: number, branches: string[]): Promise<MergeRequest[]> {
    return this.#em.find(MergeRequest, { projectId, targetBranch: { $in: branches }, state: 'opened' });
  }

  openFromFork(sourceProjectId: number): Promise<MergeRequest[]> {
    return this.#em.find(MergeRequest, { sourceProjectId, projectId: { $ne: sourceProjectId }, state: 'opened' });
  }

  async save(options: { mergeRequest: MergeRequest; events: OutgoingEvent[]; actor: EventActor | null }): Promise<void> {
    const { id, ...changes } = options.mergeRequest;
    await this.#em.nativeUpdate(MergeRequest, { id }, changes);
    for (const event of options.events) recordEvent(this.#em, { ...event, actor: options.actor });
  }

  async list(options: {
    filter: MergeRequestFilter;
    order: MergeRequestOrder;
    offset: number;
    limit: number;
  }): Promise<{ items: MergeRequest[]; total: number }> {
    const em = this.#em;
    const where = mergeRequestConditions(options.filter);
    // The page's ids and the total in one statement, then the page's entities: what findAndCount reads, with the read model's filter.
    const page = await readPage<{ id: string }>(em.getKysely() as unknown as Kysely<unknown>, {
      matching: sql`select 1 from merge_requests mr where ${where}`,
      rows: sql`select mr.id from merge_requests mr where ${where} order by ${mergeRequestOrder(options.order)}`,
      window: { offset: options.offset, limit: options.limit },
      exactTotal: true,
    });
    const ids = page.items.map((row) => Number(row.id));
    const found = new Map((ids.length > 0 ? await em.find(MergeRequest, { id: { $in: ids } }) : []).map((item) => [item.id, item]));
    return { items: ids.flatMap((id) => found.get(id) ?? []), total: page.total ?? 0 };
  }

  async addVersion(version: Omit<MergeRequestDiff, 'id'>): Promise<MergeRequestDiff> {
    const created = this.#em.create(MergeRequestDiff, version as MergeRequestDiff);
    await this.#em.flush();
    return created;
  }

  versions(mergeRequestId: number): Promise<MergeRequestDiff[]> {
    return this.#em.find(MergeRequestDiff, { mergeRequestId }, { orderBy: { id: 'desc' } });
  }

  async involvedUserIds(): Promise<number[]> {
    const rows = await this.#em.execute<Array<{ id: string }>>(
      'select author_id as id from merge_requests union select unnest(assignee_ids) from merge_requests union select unnest(reviewer_ids) from merge_requests',
    );
    return rows.map((row) => Number(row.id));
  }

  async spendTime(options: {
    id: number;
    seconds: number | 'reset';
    event: (changed: MergeRequest) => OutgoingEvent;
    actor: EventActor;
  }): Promise<MergeRequest | null> {
    const em = this.#em;
    const updated =
      options.seconds === 'reset'
        ? await em.execute<Array<{ id: string }>>(
            'update merge_requests set total_time_spent = 0, updated_at = now() where id = ? returning id',
            [options.id],
          )
        : await em.execute<Array<{ id: string }>>(
            'update merge_requests set total_time_spent = total_time_spent + ?, updated_at = now() where id = ? and total_time_spent + ? >= 0 returning id',
            [options.seconds, options.id, options.seconds],
          );
    if (updated.length === 0) return null;
    const changed = await em.findOneOrFail(MergeRequest, { id: options.id }, { refresh: true });
    recordEvent(em, { ...options.event(changed), actor: options.actor });
    return changed;
  }

  async delete(id: number): Promise<void> {
    await this.#em.nativeDelete(MergeRequest, { id });
  }

  async startRebase(options: { id: number; now: Date; staleBefore: Date }): Promise<boolean> {
    const updated = await this.#em.nativeUpdate(
      MergeRequest,
      { id: options.id, state: 'opened', $or: [{ rebaseStartedAt: null }, { rebaseStartedAt: { $lt: options.staleBefore } }] },
      { rebaseStartedAt: options.now },
    );
    return updated === 1;
  }

  async finishRebase(options: { id: number; mergeError: string | null }): Promise<void> {
    await this.#em.nativeUpdate(MergeRequest, { id: options.id }, { rebaseStartedAt: null, mergeError: options.mergeError });
  }
}
