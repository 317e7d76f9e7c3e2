import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';
import { FieldValidationError } from '@platform/errors';
import { insertWithEvent, recordEvent, type EventActor, type OutgoingEvent } from '@platform/events';
import { Milestone } from './milestone.entity.ts';
import { likePattern } from '@platform/db';
import { nextIid } from '../../project-iids.ts';

/** The tables whose rows point at a milestone (`milestone_id`): a deleted milestone leaves them without one. */
const MILESTONED_TABLES = ['merge_requests', 'issues'] as const;

export type NewMilestone = Omit<Milestone, 'id' | 'iid'>;

export interface MilestoneFilter {
  state?: 'active' | 'closed' | undefined;
  iids?: number[] | undefined;
  title?: string | undefined;
  search?: string | undefined;
  updatedBefore?: Date | undefined;
  updatedAfter?: Date | undefined;
}

/** Writes record their events in the caller's transaction. */
export interface MilestoneStore {
  /** Ordered as GitLab lists them: soonest due first (undated last), then by title. */
  list(
    projectId: number,
    options: { filter: MilestoneFilter; offset: number; limit: number },
  ): Promise<{ items: Milestone[]; total: number }>;
  find(projectId: number, id: number): Promise<Milestone | null>;
  byIds(ids: number[]): Promise<Milestone[]>;
  byTitle(projectId: number, title: string): Promise<Milestone | null>;
  /** The ids of every project's milestones of that title. */
  idsByTitle(title: string): Promise<number[]>;
  /** Adds the milestone with the project's next iid; a taken title is GitLab's validation error. */
  create(options: { milestone: NewMilestone; event: (created: Milestone) => OutgoingEvent; actor: EventActor | null }): Promise<Milestone>;
  update(options: { milestone: Milestone; events: OutgoingEvent[]; actor: EventActor | null }): Promise<void>;
  delete(options: { milestone: Milestone; event: OutgoingEvent; actor: EventActor | null }): Promise<void>;
}

/** GitLab's words for a title already used by another milestone of the project. */
function translated(error: unknown): unknown {
  if (error instanceof UniqueConstraintViolationException) {
    return new FieldValidationError({ title: ['already being used for another group or project milestone.'] });
  }
  return error;
}

export class PgMilestoneStore implements MilestoneStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async list(projectId: number, options: { filter: MilestoneFilter; offset: number; limit: number }) {
    const { filter } = options;
    const all: Record<string, unknown>[] = [{ projectId }];
    if (filter.state) all.push({ state: filter.state });
    if (filter.iids) all.push({ iid: { $in: filter.iids } });
    if (filter.title !== undefined) all.push({ title: filter.title });
    if (filter.search) {
      const pattern = likePattern(filter.search);
      all.push({ $or: [{ title: { $ilike: pattern } }, { description: { $ilike: pattern } }] });
    }
    if (filter.updatedBefore) all.push({ updatedAt: { $lte: filter.updatedBefore } });
    if (filter.updatedAfter) all.push({ updatedAt: { $gte: filter.updatedAfter } });
    const [items, total] = await this.#em.findAndCount(
      Milestone,
      { $and: all },
      {
        orderBy: [{ dueDate: 'asc nulls last' }, { title: 'asc' }, { id: 'asc' }],
        offset: options.offset,
        limit: options.limit,
      },
    );
    return { items, total };
  }

  find(projectId: number, id: number): Promise<Milestone | null> {
    return this.#em.findOne(Milestone, { projectId, id });
  }

  byIds(ids: number[]): Promise<Milestone[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#em.find(Milestone, { id: { $in: [...new Set(ids)] } });
  }

  byTitle(projectId: number, title: string): Promise<Milestone | null> {
    return this.#em.findOne(Milestone, { projectId, title });
  }

  async idsByTitle(title: string): Promise<number[]> {
    // Ids only: the merge request lists' filter reads no milestone.
    const rows = await this.#em.execute<Array<{ id: string }>>('select id from milestones where title = ?', [title]);
    return rows.map((row) => Number(row.id));
  }

  async create(options: { milestone: NewMilestone; event: (created: Milestone) => OutgoingEvent; actor: EventActor | null }) {
    const em = this.#em;
    try {
      const iid = await nextIid(em, 'milestones', options.milestone.projectId);
      return await insertWithEvent(em, Milestone, { ...options.milestone, iid } as Milestone, options);
    } catch (error) {
      throw translated(error);
    }
  }

  async update(options: { milestone: Milestone; events: OutgoingEvent[]; actor: EventActor | null }): Promise<void> {
    const { id, ...changes } = options.milestone;
    const em = this.#em;
    try {
      await em.nativeUpdate(Milestone, { id }, changes);
      for (const event of options.events) recordEvent(em, { ...event, actor: options.actor });
    } catch (error) {
      throw translated(error);
    }
  }

  async delete(options: { milestone: Milestone; event: OutgoingEvent; actor: EventActor | null }): Promise<void> {
    const em = this.#em;
    for (const table of MILESTONED_TABLES) {
      await em.execute(`update ${table} set milestone_id = null where milestone_id = ?`, [options.milestone.id]);
    }
    await em.nativeDelete(Milestone, { id: options.milestone.id });
    recordEvent(em, { ...options.event, actor: options.actor });
  }
}
