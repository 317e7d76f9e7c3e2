import { findPage, likePattern, translateDbError, type EntityManager, type Page, type PageWindow } from '@platform/db';
import { recordEvent, type EventActor, type OutgoingEvent } from '@platform/events';
import type { ClientAnswerChanges } from './client-answer-changes.ts';
import { FeatureFlagStrategy, FeatureFlagUserList } from './feature-flag.entity.ts';
import { touchFlagsRevision } from './feature-flags-store.ts';

export const USER_LIST_NAME_TAKEN = 'Name has already been taken';

/** `%` and `_` match themselves in a search. */

export class PgUserListStore {
  readonly #em: EntityManager;
  readonly #changes: ClientAnswerChanges;

  constructor(em: EntityManager, changes: ClientAnswerChanges) {
    this.#em = em;
    this.#changes = changes;
  }

  list(projectId: number, options: { search?: string | undefined; window: PageWindow }): Promise<Page<FeatureFlagUserList>> {
    const where = options.search === undefined ? { projectId } : { projectId, name: { $ilike: likePattern(options.search) } };
    return findPage(this.#em.fork(), FeatureFlagUserList, where, { orderBy: { id: 'asc' }, window: options.window });
  }

  byIid(projectId: number, iid: number): Promise<FeatureFlagUserList | null> {
    return this.#em.fork().findOne(FeatureFlagUserList, { projectId, iid });
  }

  byId(projectId: number, id: number): Promise<FeatureFlagUserList | null> {
    return this.#em.fork().findOne(FeatureFlagUserList, { projectId, id });
  }

  /** Adds a list with the project's next iid. */
  async create(options: { projectId: number; name: string; userXids: string }): Promise<FeatureFlagUserList> {
    try {
      return await this.#em.fork().transactional(async (em) => {
        // Creations in one project take turns, so that each takes the next iid.
        await em.execute('select pg_advisory_xact_lock(1701, ?::integer)', [options.projectId]);
        const [row] = await em.execute<Array<{ next: number }>>(
          'select coalesce(max(iid), 0) + 1 as next from feature_flag_user_lists where project_id = ?',
          [options.projectId],
        );
        const now = new Date();
        return em.create(FeatureFlagUserList, { ...options, iid: Number(row!.next), createdAt: now, updatedAt: now });
      });
    } catch (error) {
      throw translateDbError(error, { conflict: USER_LIST_NAME_TAKEN });
    }
  }

  async update(
    target: FeatureFlagUserList,
    options: {
      changes: { name?: string | undefined; userXids?: string | undefined };
      events: (updated: FeatureFlagUserList) => OutgoingEvent[];
      actor: EventActor | null;
    },
  ): Promise<FeatureFlagUserList> {
    try {
      const updated = await this.#em.fork().transactional(async (em) => {
        const list = await em.findOneOrFail(FeatureFlagUserList, { id: target.id });
        const { name, userXids } = options.changes;
        em.assign(list, {
          ...(name === undefined ? {} : { name }),
          ...(userXids === undefined ? {} : { userXids }),
          updatedAt: new Date(),
        });
        // Strategies targeting the list answer Unleash clients with its users.
        await touchFlagsRevision(em, list.projectId);
        for (const event of options.events(list)) recordEvent(em, { ...event, actor: options.actor });
        return list;
      });
      this.#changes.changed(updated.projectId);
      return updated;
    } catch (error) {
      throw translateDbError(error, { conflict: USER_LIST_NAME_TAKEN });
    }
  }

  /** Removes a list no strategy uses; false when one does. */
  delete(target: FeatureFlagUserList): Promise<boolean> {
    return this.#em.fork().transactional(async (em) => {
      if ((await em.count(FeatureFlagStrategy, { userListId: target.id })) > 0) return false;
      await em.nativeDelete(FeatureFlagUserList, { id: target.id });
      return true;
    });
  }
}
