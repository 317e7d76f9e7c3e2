import { findPage, likePattern, translateDbError, type EntityManager, type Page, type PageWindow } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { FeatureFlagStrategy, FeatureFlagUserList } from './feature-flag.entity.ts';
import { touchFlagsRevision } from './feature-flags-store.ts';

export const USER_LIST_NAME_TAKEN = 'Name has already been taken';

/** `%` and `_` match themselves in a search. */

export class PgUserListStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(projectId: number, options: { search?: string | undefined; window: PageWindow }): Promise<Page<FeatureFlagUserList>> {
    const where = options.search === undefined ? { projectId } : { projectId, name: { $ilike: likePattern(options.search) } };
    return findPage(this.#em, FeatureFlagUserList, where, { orderBy: { id: 'asc' }, window: options.window });
  }

  byIid(projectId: number, iid: number): Promise<FeatureFlagUserList | null> {
    return this.#em.findOne(FeatureFlagUserList, { projectId, iid });
  }

  byId(projectId: number, id: number): Promise<FeatureFlagUserList | null> {
    return this.#em.findOne(FeatureFlagUserList, { projectId, id });
  }

  /** Adds a list with the project's next iid, in the caller's transaction. */
  async create(options: { projectId: number; name: string; userXids: string }): Promise<FeatureFlagUserList> {
    const em = this.#em;
    try {
      // Creations in one project take turns, so that each takes the next iid.
      await em.execute('select pg_advisory_xact_lock(1701, ?::integer)', [options.projectId]);
      const [row] = await em.execute<Array<{ next: number }>>(
        'select coalesce(max(iid), 0) + 1 as next from feature_flag_user_lists where project_id = ?',
        [options.projectId],
      );
      const now = new Date();
      const list = em.create(FeatureFlagUserList, { ...options, iid: Number(row!.next), createdAt: now, updatedAt: now });
      await em.flush();
      return list;
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
    const em = this.#em;
    try {
      const list = await em.findOneOrFail(FeatureFlagUserList, { id: target.id });
      const { name, userXids } = options.changes;
      em.assign(list, {
        ...(name === undefined ? {} : { name }),
        ...(userXids === undefined ? {} : { userXids }),
        updatedAt: new Date(),
      });
      await em.flush();
      // Strategies targeting the list answer Unleash clients with its users.
      await touchFlagsRevision(em, list.projectId);
      for (const event of options.events(list)) recordEvent(em, { ...event, actor: options.actor });
      return list;
    } catch (error) {
      throw translateDbError(error, { conflict: USER_LIST_NAME_TAKEN });
    }
  }

  /** Removes a list no strategy uses; false when one does. */
  async delete(target: FeatureFlagUserList): Promise<boolean> {
    if ((await this.#em.count(FeatureFlagStrategy, { userListId: target.id })) > 0) return false;
    await this.#em.nativeDelete(FeatureFlagUserList, { id: target.id });
    return true;
  }
}
