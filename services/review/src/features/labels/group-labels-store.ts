import type { EntityManager } from '@platform/db';
import { likePattern, translateDbError } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { insertWithEvent, recordEvent } from '@platform/events/database';
import { GroupLabel } from './group-label.entity.ts';

export type NewGroupLabel = Omit<GroupLabel, 'id'>;

/** Writes record their events in the caller's transaction. */
export interface GroupLabelStore {
  /** The labels of `groupIds`, ordered by title; `search` matches titles and descriptions. */
  list(
    groupIds: number[],
    options: { search?: string | undefined; offset: number; limit: number },
  ): Promise<{ items: GroupLabel[]; total: number }>;
  /** By id, or else by title, among the labels of `groupIds`. */
  find(groupIds: number[], idOrTitle: string): Promise<GroupLabel | null>;
  /** The labels of `groupIds` with these titles. */
  byTitles(groupIds: number[], titles: string[]): Promise<GroupLabel[]>;
  /** ConflictError("Label already exists") when the group has one of that title. */
  create(options: { label: NewGroupLabel; event: (created: GroupLabel) => OutgoingEvent; actor: EventActor | null }): Promise<GroupLabel>;
  /** Writes the label and renames it on the merge requests of the group's projects; ConflictError when the title is taken. */
  update(options: { label: GroupLabel; previousTitle: string; event: OutgoingEvent; actor: EventActor | null }): Promise<void>;
  /** Removes the label and takes it off the merge requests of the group's projects. */
  delete(options: { label: GroupLabel; event: OutgoingEvent; actor: EventActor | null }): Promise<void>;
}

const CONFLICT = { conflict: 'Label already exists' };

/**
 * Merge requests of the group's projects carrying `title` as this group label: not those whose
 * project has a label of its own by that title, which wins over the group's.
 */
const CARRIED_IN_GROUP = `target_namespace_ids @> array[?]::bigint[] and labels @> array[?]::text[]
  and not exists (select 1 from labels own where own.project_id = merge_requests.project_id and own.title = ?)`;

export class PgGroupLabelStore implements GroupLabelStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async list(groupIds: number[], options: { search?: string | undefined; offset: number; limit: number }) {
    if (groupIds.length === 0) return { items: [], total: 0 };
    const pattern = options.search ? likePattern(options.search) : undefined;
    const inGroups = { groupId: { $in: groupIds } };
    const where = pattern ? { ...inGroups, $or: [{ title: { $ilike: pattern } }, { description: { $ilike: pattern } }] } : inGroups;
    const [items, total] = await this.#em.findAndCount(GroupLabel, where, {
      orderBy: [{ title: 'asc' }, { id: 'asc' }],
      offset: options.offset,
      limit: options.limit,
    });
    return { items, total };
  }

  async find(groupIds: number[], idOrTitle: string): Promise<GroupLabel | null> {
    if (groupIds.length === 0) return null;
    const em = this.#em;
    const inGroups = { groupId: { $in: groupIds } };
    const byId = /^\d{1,15}$/.test(idOrTitle) ? await em.findOne(GroupLabel, { ...inGroups, id: Number(idOrTitle) }) : null;
    if (byId) return byId;
    // The nearest group's label of that title: `groupIds` go from the top-level group down.
    const named = await em.find(GroupLabel, { ...inGroups, title: idOrTitle });
    return named.sort((a, b) => groupIds.indexOf(b.groupId) - groupIds.indexOf(a.groupId))[0] ?? null;
  }

  byTitles(groupIds: number[], titles: string[]): Promise<GroupLabel[]> {
    if (groupIds.length === 0 || titles.length === 0) return Promise.resolve([]);
    return this.#em.find(GroupLabel, { groupId: { $in: groupIds }, title: { $in: titles } }, { orderBy: { title: 'asc' } });
  }

  async create(options: { label: NewGroupLabel; event: (created: GroupLabel) => OutgoingEvent; actor: EventActor | null }) {
    try {
      const em = this.#em;
      return await insertWithEvent(em, GroupLabel, options.label as GroupLabel, options);
    } catch (error) {
      throw translateDbError(error, CONFLICT);
    }
  }

  async update(options: { label: GroupLabel; previousTitle: string; event: OutgoingEvent; actor: EventActor | null }): Promise<void> {
    const { id, ...changes } = options.label;
    const { groupId, title } = options.label;
    try {
      const em = this.#em;
      await em.nativeUpdate(GroupLabel, { id }, changes);
      if (options.previousTitle !== title) {
        await em.execute(`update merge_requests set labels = array_replace(labels, ?, ?) where ${CARRIED_IN_GROUP}`, [
          options.previousTitle,
          title,
          groupId,
          options.previousTitle,
          options.previousTitle,
        ]);
      }
      recordEvent(em, { ...options.event, actor: options.actor });
    } catch (error) {
      throw translateDbError(error, CONFLICT);
    }
  }

  async delete(options: { label: GroupLabel; event: OutgoingEvent; actor: EventActor | null }): Promise<void> {
    const { groupId, title } = options.label;
    const em = this.#em;
    await em.nativeDelete(GroupLabel, { id: options.label.id });
    await em.execute(`update merge_requests set labels = array_remove(labels, ?) where ${CARRIED_IN_GROUP}`, [
      title,
      groupId,
      title,
      title,
    ]);
    recordEvent(em, { ...options.event, actor: options.actor });
  }
}
