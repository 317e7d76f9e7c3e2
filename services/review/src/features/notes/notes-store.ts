import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { insertWithEvent, recordEvent } from '@platform/events/database';
import { Note } from './note.entity.ts';
import type { Noteable } from './noteable.ts';
import type { Mentionable, MentionedIn } from './cross-references.ts';

export type NewNote = Omit<Note, 'id' | 'mergeRequestId' | 'issueId'>;

export interface NoteOrder {
  by: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

export interface NoteStore {
  /** Adds the note and the event it causes, in the caller's transaction. */
  create(options: { note: NewNote; event: (created: Note) => OutgoingEvent; actor: EventActor }): Promise<Note>;
  find(noteable: Noteable, noteId: number): Promise<Note | null>;
  list(options: { noteable: Noteable; order: NoteOrder; offset: number; limit: number }): Promise<{ items: Note[]; total: number }>;
  /** A page of the noteable's discussion ids, oldest discussion first. */
  discussionIds(options: { noteable: Noteable; offset: number; limit: number }): Promise<{ items: string[]; total: number }>;
  /** The notes of these discussions, oldest first. */
  discussionNotes(noteable: Noteable, discussionIds: string[]): Promise<Note[]>;
  /** Writes what changed of the notes (body, kind, resolution) and the events, in the caller's transaction. */
  save(options: { notes: Note[]; events: OutgoingEvent[]; actor: EventActor }): Promise<void>;
  /** Removes the note and records its event, in the caller's transaction. */
  delete(options: { note: Note; event: OutgoingEvent; actor: EventActor }): Promise<void>;
  /** Comments (not system notes) per merge request id. */
  userNotesCounts(mergeRequestIds: number[]): Promise<Map<number, number>>;
  /** Resolvable notes not yet resolved, per merge request id (those with none are absent). */
  unresolvedCounts(mergeRequestIds: number[]): Promise<Map<number, number>>;
  /** A merge request or an issue, by its project and iid or by its id; null when there is none. */
  mentionable(where: { type: Mentionable['type'] } & ({ projectId: number; iid: number } | { id: number })): Promise<Mentionable | null>;
  /** Whether the noteable has a cross-reference note of this mentioner. */
  crossReferenced(options: { noteable: Noteable; mentionedIn: MentionedIn }): Promise<boolean>;
}

interface MentionableRow {
  id: string;
  project_id: string;
  iid: number;
  title: string;
  author_id: string;
  assignee_ids: string[];
  confidential: boolean;
  discussion_locked: boolean | null;
}

/** The notes of one merge request, issue or commit. */
function noteableFilter(noteable: Noteable): FilterQuery<Note> {
  return noteable.type === 'Commit'
    ? { projectId: noteable.projectId, noteableType: 'Commit', commitId: noteable.commitId }
    : { noteableType: noteable.type, noteableId: noteable.id };
}

/** The same filter in SQL, with its parameters. */
function noteableSql(noteable: Noteable): { sql: string; params: unknown[] } {
  return noteable.type === 'Commit'
    ? { sql: `project_id = ? and noteable_type = 'Commit' and commit_id = ?`, params: [noteable.projectId, noteable.commitId] }
    : { sql: 'noteable_type = ? and noteable_id = ?', params: [noteable.type, noteable.id] };
}

export class PgNoteStore implements NoteStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  create(options: { note: NewNote; event: (created: Note) => OutgoingEvent; actor: EventActor }): Promise<Note> {
    return insertWithEvent(this.#em, Note, options.note as Note, options);
  }

  find(noteable: Noteable, noteId: number): Promise<Note | null> {
    return this.#em.findOne(Note, { $and: [noteableFilter(noteable), { id: noteId }] });
  }

  async list(options: { noteable: Noteable; order: NoteOrder; offset: number; limit: number }) {
    const field = options.order.by === 'updated_at' ? 'updatedAt' : 'createdAt';
    const [items, total] = await this.#em.findAndCount(Note, noteableFilter(options.noteable), {
      orderBy: [{ [field]: options.order.sort }, { id: options.order.sort }],
      offset: options.offset,
      limit: options.limit,
    });
    return { items, total };
  }

  async discussionIds(options: { noteable: Noteable; offset: number; limit: number }) {
    const where = noteableSql(options.noteable);
    const [rows, counted] = await Promise.all([
      this.#em.execute<Array<{ discussion_id: string }>>(
        `select discussion_id from notes where ${where.sql} group by discussion_id order by min(created_at), min(id) offset ? limit ?`,
        [...where.params, options.offset, options.limit],
      ),
      this.#em.execute<Array<{ count: string }>>(
        `select count(distinct discussion_id) as count from notes where ${where.sql}`,
        where.params,
      ),
    ]);
    return { items: rows.map((row) => row.discussion_id), total: Number(counted[0]?.count ?? 0) };
  }

  discussionNotes(noteable: Noteable, discussionIds: string[]): Promise<Note[]> {
    if (discussionIds.length === 0) return Promise.resolve([]);
    return this.#em.find(
      Note,
      { $and: [noteableFilter(noteable), { discussionId: { $in: discussionIds } }] },
      {
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      },
    );
  }

  async save(options: { notes: Note[]; events: OutgoingEvent[]; actor: EventActor }): Promise<void> {
    const em = this.#em;
    for (const note of options.notes) {
      await em.nativeUpdate(
        Note,
        { id: note.id },
        {
          body: note.body,
          type: note.type,
          resolvable: note.resolvable,
          resolvedAt: note.resolvedAt,
          resolvedById: note.resolvedById,
          updatedAt: note.updatedAt,
        },
      );
    }
    for (const event of options.events) recordEvent(em, { ...event, actor: options.actor });
  }

  async delete(options: { note: Note; event: OutgoingEvent; actor: EventActor }): Promise<void> {
    const em = this.#em;
    await em.nativeDelete(Note, { id: options.note.id });
    recordEvent(em, { ...options.event, actor: options.actor });
  }

  userNotesCounts(mergeRequestIds: number[]): Promise<Map<number, number>> {
    return this.#countsPerMergeRequest(mergeRequestIds, 'not system');
  }

  unresolvedCounts(mergeRequestIds: number[]): Promise<Map<number, number>> {
    return this.#countsPerMergeRequest(mergeRequestIds, 'resolvable and resolved_at is null');
  }

  async mentionable(
    where: { type: Mentionable['type'] } & ({ projectId: number; iid: number } | { id: number }),
  ): Promise<Mentionable | null> {
    const [table, confidential] = where.type === 'Issue' ? ['issues', 'confidential'] : ['merge_requests', 'false'];
    const [condition, params] = 'id' in where ? ['id = ?', [where.id]] : ['project_id = ? and iid = ?', [where.projectId, where.iid]];
    const [row] = await this.#em.execute<MentionableRow[]>(
      `select id, project_id, iid, title, author_id, assignee_ids, ${confidential} as confidential, discussion_locked
        from ${table} where ${condition}`,
      params,
    );
    if (!row) return null;
    return {
      type: where.type,
      id: Number(row.id),
      projectId: Number(row.project_id),
      iid: row.iid,
      title: row.title,
      authorId: Number(row.author_id),
      assigneeIds: row.assignee_ids.map(Number),
      confidential: row.confidential,
      locked: row.discussion_locked === true,
    };
  }

  async crossReferenced(options: { noteable: Noteable; mentionedIn: MentionedIn }): Promise<boolean> {
    const where = noteableSql(options.noteable);
    const rows = await this.#em.execute<Array<{ id: string }>>(
      `select id from notes where ${where.sql} and mentioned_in_type = ? and mentioned_in_id = ? limit 1`,
      [...where.params, options.mentionedIn.type, options.mentionedIn.id],
    );
    return rows.length > 0;
  }

  async #countsPerMergeRequest(mergeRequestIds: number[], condition: string): Promise<Map<number, number>> {
    if (mergeRequestIds.length === 0) return new Map();
    const rows = await this.#em.execute<Array<{ noteable_id: string; count: string }>>(
      `select noteable_id, count(*) as count from notes
        where noteable_type = 'MergeRequest' and noteable_id = any(?::bigint[]) and ${condition} group by noteable_id`,
      [`{${mergeRequestIds.join(',')}}`],
    );
    return new Map(rows.map((row) => [Number(row.noteable_id), Number(row.count)]));
  }
}
