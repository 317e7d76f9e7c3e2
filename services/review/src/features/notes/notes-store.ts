import type { EntityManager } from '@platform/db';
import { insertWithEvent, recordEvent, type EventActor, type OutgoingEvent } from '@platform/events';
import { Note } from './note.entity.ts';

export type NewNote = Omit<Note, 'id'>;

export interface NoteOrder {
  by: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

export interface NoteStore {
  /** Adds the note and the event it causes, in the caller's transaction. */
  create(options: { note: NewNote; event: (created: Note) => OutgoingEvent; actor: EventActor }): Promise<Note>;
  find(noteableId: number, noteId: number): Promise<Note | null>;
  list(options: { noteableId: number; order: NoteOrder; offset: number; limit: number }): Promise<{ items: Note[]; total: number }>;
  /** Writes the changed body and its event, in the caller's transaction. */
  save(options: { note: Note; event: OutgoingEvent; actor: EventActor }): Promise<void>;
  /** Removes the note and records its event, in the caller's transaction. */
  delete(options: { note: Note; event: OutgoingEvent; actor: EventActor }): Promise<void>;
  /** Comments (not system notes) per merge request id. */
  userNotesCounts(noteableIds: number[]): Promise<Map<number, number>>;
}

export class PgNoteStore implements NoteStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  create(options: { note: NewNote; event: (created: Note) => OutgoingEvent; actor: EventActor }): Promise<Note> {
    return insertWithEvent(this.#em, Note, options.note as Note, options);
  }

  find(noteableId: number, noteId: number): Promise<Note | null> {
    return this.#em.findOne(Note, { id: noteId, noteableId });
  }

  async list(options: { noteableId: number; order: NoteOrder; offset: number; limit: number }) {
    const field = options.order.by === 'updated_at' ? 'updatedAt' : 'createdAt';
    const [items, total] = await this.#em.findAndCount(
      Note,
      { noteableId: options.noteableId },
      { orderBy: [{ [field]: options.order.sort }, { id: options.order.sort }], offset: options.offset, limit: options.limit },
    );
    return { items, total };
  }

  async save(options: { note: Note; event: OutgoingEvent; actor: EventActor }): Promise<void> {
    const em = this.#em;
    await em.nativeUpdate(Note, { id: options.note.id }, { body: options.note.body, updatedAt: options.note.updatedAt });
    recordEvent(em, { ...options.event, actor: options.actor });
  }

  async delete(options: { note: Note; event: OutgoingEvent; actor: EventActor }): Promise<void> {
    const em = this.#em;
    await em.nativeDelete(Note, { id: options.note.id });
    recordEvent(em, { ...options.event, actor: options.actor });
  }

  async userNotesCounts(noteableIds: number[]): Promise<Map<number, number>> {
    if (noteableIds.length === 0) return new Map();
    const rows = await this.#em.execute<Array<{ noteable_id: string; count: string }>>(
      'select noteable_id, count(*) as count from notes where noteable_id = any(?::bigint[]) and not system group by noteable_id',
      [`{${noteableIds.join(',')}}`],
    );
    return new Map(rows.map((row) => [Number(row.noteable_id), Number(row.count)]));
  }
}
