import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { findPage, type Page, type PageWindow } from '@platform/db';
import { ActivityEvent, type Action } from './activity-event.entity.ts';
import { ActivityUser } from './activity-user.entity.ts';

export type NewActivityEvent = Omit<ActivityEvent, 'id'>;

/** User ids are PostgreSQL integers. */
const MAX_USER_ID = 2_147_483_647;

export interface ActivityEventFilter {
  authorId?: number | undefined;
  projectId?: number | undefined;
  action?: Action | undefined;
  /** GitLab's class name (`MergeRequest`). */
  targetType?: string | undefined;
  /** Events created at or after this instant. */
  from?: Date | undefined;
  /** Events created before this instant. */
  until?: Date | undefined;
}

export type SortDirection = 'asc' | 'desc';

export interface ActivityEventStore {
  /** Records an event once: a second copy of the same domain event (a replay) changes nothing. */
  record(event: NewActivityEvent): Promise<void>;
  /** A page with its total, in creation order. */
  page(filter: ActivityEventFilter, sort: SortDirection, window: PageWindow): Promise<Page<ActivityEvent>>;
  /** Rows of the list from `offset` on, without counting: for lists filtered further in memory. */
  slice(filter: ActivityEventFilter, sort: SortDirection, window: PageWindow): Promise<ActivityEvent[]>;
  removeOfProject(projectId: number): Promise<void>;
  removeOfAuthor(authorId: number): Promise<void>;
  reassignAuthor(options: { from: number; to: number }): Promise<void>;
  /** Removes events created before `cutoff`; answers how many. */
  removeCreatedBefore(cutoff: Date): Promise<number>;
  saveUser(user: ActivityUser): Promise<void>;
  removeUser(id: number): Promise<void>;
  /** A user by id, or by username in any case. */
  findUser(idOrUsername: string): Promise<ActivityUser | null>;
  usersByIds(ids: number[]): Promise<ActivityUser[]>;
}

export class PgActivityEventStore implements ActivityEventStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async record(event: NewActivityEvent): Promise<void> {
    await this.#em.createQueryBuilder(ActivityEvent).insert(event).onConflict('sourceEventId').ignore().execute();
  }

  page(filter: ActivityEventFilter, sort: SortDirection, window: PageWindow): Promise<Page<ActivityEvent>> {
    return findPage(this.#em, ActivityEvent, whereOf(filter), { orderBy: { createdAt: sort, id: sort }, window });
  }

  slice(filter: ActivityEventFilter, sort: SortDirection, window: PageWindow): Promise<ActivityEvent[]> {
    return this.#em.find(ActivityEvent, whereOf(filter), {
      orderBy: { createdAt: sort, id: sort },
      offset: window.offset,
      limit: window.limit,
    });
  }

  async removeOfProject(projectId: number): Promise<void> {
    await this.#em.nativeDelete(ActivityEvent, { projectId });
  }

  async removeOfAuthor(authorId: number): Promise<void> {
    await this.#em.nativeDelete(ActivityEvent, { authorId });
  }

  async reassignAuthor(options: { from: number; to: number }): Promise<void> {
    await this.#em.nativeUpdate(ActivityEvent, { authorId: options.from }, { authorId: options.to });
  }

  removeCreatedBefore(cutoff: Date): Promise<number> {
    return this.#em.nativeDelete(ActivityEvent, { createdAt: { $lt: cutoff } });
  }

  async saveUser(user: ActivityUser): Promise<void> {
    await this.#em.upsert(ActivityUser, user);
  }

  async removeUser(id: number): Promise<void> {
    await this.#em.nativeDelete(ActivityUser, { id });
  }

  async findUser(idOrUsername: string): Promise<ActivityUser | null> {
    if (/^\d+$/.test(idOrUsername)) {
      const id = Number(idOrUsername);
      // An id beyond the column's range names nobody.
      return id <= MAX_USER_ID ? this.#em.findOne(ActivityUser, { id }) : null;
    }
    const [row] = await this.#em.execute('select * from activity_users where lower(username) = lower(?) limit 1', [idOrUsername]);
    const found = row ? this.#em.map(ActivityUser, row) : undefined;
    return found ?? null;
  }

  usersByIds(ids: number[]): Promise<ActivityUser[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.#em.find(ActivityUser, { id: { $in: ids } });
  }
}

function whereOf(filter: ActivityEventFilter): FilterQuery<ActivityEvent> {
  const where: FilterQuery<ActivityEvent> & Record<string, unknown> = {};
  if (filter.authorId !== undefined) where.authorId = filter.authorId;
  if (filter.projectId !== undefined) where.projectId = filter.projectId;
  if (filter.action) where.action = filter.action;
  if (filter.targetType) where.targetType = filter.targetType;
  if (filter.from || filter.until) {
    where.createdAt = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.until ? { $lt: filter.until } : {}) };
  }
  return where;
}
