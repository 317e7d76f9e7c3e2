import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';
import { FieldValidationError } from '@platform/errors';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { insertWithEvent, recordEvent } from '@platform/events/database';
import { Milestone } from './milestone.entity.ts';
import { likePattern } from '@platform/db';
import { nextIid } from '../../project-iids.ts';

/** The tables whose rows point at a milestone (`milestone_id`): a deleted milestone leaves them without one. */
const MILESTONED_TABLES = ['merge_requests', 'issues'] as const;

export type NewMilestone = Omit<Milestone, 'id' | 'iid'>;

/** Whose milestones: a project's (and its groups' with `groupIds`), or the groups'. */
export interface MilestoneParent {
  projectId?: number | undefined;
  groupIds?: number[] | undefined;
}

/** The advisory lock space of group milestones' iids (project iids use `nextIid`'s). */
const GROUP_IID_LOCK = 7_305;

/** The next iid of a group's milestones, under a transaction-scoped lock on the group's iids. */
async function nextGroupIid(em: EntityManager, groupId: number): Promise<number> {
  await em.execute('select pg_advisory_xact_lock(?, ?)', [GROUP_IID_LOCK, groupId]);
  const [row] = await em.execute<Array<{ next: number }>>('select coalesce(max(iid), 0) + 1 as next from milestones where group_id = ?', [
    groupId,
  ]);
  return Number(row?.next ?? 1);
}

function parentWhere(parent: MilestoneParent): Record<string, unknown> {
  const any: Record<string, unknown>[] = [];
  if (parent.projectId !== undefined) any.push({ projectId: parent.projectId });
  if (parent.groupIds?.length) any.push({ groupId: { $in: parent.groupIds } });
  return any.length === 0 ? { id: null } : { $or: any };
}

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
    parent: MilestoneParent,
    options: { filter: MilestoneFilter; offset: number; limit: number },
  ): Promise<{ items: Milestone[]; total: number }>;
  find(parent: MilestoneParent, id: number): Promise<Milestone | null>;
  byIds(ids: number[]): Promise<Milestone[]>;
  byTitle(projectId: number, title: string): Promise<Milestone | null>;
  /** The ids of every project's milestones of that title. */
  idsByTitle(title: string): Promise<number[]>;
  /** Every project's milestones of that title (not groups'). */
  projectMilestonesTitled(title: string): Promise<Milestone[]>;
  /** Adds the milestone with its project's or group's next iid; a taken title is GitLab's validation error. */
  create(options: { milestone: NewMilestone; event: (created: Milestone) => OutgoingEvent; actor: EventActor | null }): Promise<Milestone>;
  update(options: { milestone: Milestone; events: OutgoingEvent[]; actor: EventActor | null }): Promise<void>;
  delete(options: { milestone: Milestone; event: OutgoingEvent; actor: EventActor | null }): Promise<void>;
  /**
   * Adds the group milestone `milestone` in place of the project milestones `replaced`: what
   * carried one of those carries it, and they are deleted, each with its event of `replacedEvents`.
   */
  replaceWithGroupMilestone(options: {
    milestone: NewMilestone;
    event: (created: Milestone) => OutgoingEvent;
    replaced: Milestone[];
    replacedEvents: OutgoingEvent[];
    actor: EventActor | null;
  }): Promise<Milestone>;
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

  async list(parent: MilestoneParent, options: { filter: MilestoneFilter; offset: number; limit: number }) {
    const { filter } = options;
    const all: Record<string, unknown>[] = [parentWhere(parent)];
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

  find(parent: MilestoneParent, id: number): Promise<Milestone | null> {
    return this.#em.findOne(Milestone, { $and: [parentWhere(parent), { id }] });
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

  projectMilestonesTitled(title: string): Promise<Milestone[]> {
    return this.#em.find(Milestone, { title, projectId: { $ne: null } }, { orderBy: { id: 'asc' } });
  }

  async create(options: { milestone: NewMilestone; event: (created: Milestone) => OutgoingEvent; actor: EventActor | null }) {
    const em = this.#em;
    try {
      const { projectId, groupId } = options.milestone;
      const iid = projectId ? await nextIid(em, 'milestones', projectId) : await nextGroupIid(em, groupId ?? 0);
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

  async replaceWithGroupMilestone(options: {
    milestone: NewMilestone;
    event: (created: Milestone) => OutgoingEvent;
    replaced: Milestone[];
    replacedEvents: OutgoingEvent[];
    actor: EventActor | null;
  }): Promise<Milestone> {
    const em = this.#em;
    const ids = options.replaced.map((milestone) => milestone.id);
    const created = await this.create({ milestone: options.milestone, event: options.event, actor: options.actor });
    const placeholders = ids.map(() => '?').join(', ');
    for (const table of MILESTONED_TABLES) {
      await em.execute(`update ${table} set milestone_id = ? where milestone_id in (${placeholders})`, [created.id, ...ids]);
    }
    await em.nativeDelete(Milestone, { id: { $in: ids } });
    for (const event of options.replacedEvents) recordEvent(em, { ...event, actor: options.actor });
    return created;
  }
}
