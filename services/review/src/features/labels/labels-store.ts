import type { EntityManager } from '@platform/db';
import { likePattern, translateDbError } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { insertWithEvent, recordEvent } from '@platform/events/database';
import { Label } from './label.entity.ts';

export type NewLabel = Omit<Label, 'id'>;

/** The tables whose `labels` column carries label titles: a renamed or deleted label changes them too. */
const LABELLED_TABLES = ['merge_requests', 'issues'] as const;

/** What GitLab counts of a label when listing it. */
export interface LabelCounts {
  openMergeRequests: number;
  openIssues: number;
  closedIssues: number;
}

/** Writes record their events in the caller's transaction. */
export interface LabelStore {
  /** Ordered by title; `search` matches titles and descriptions. */
  list(
    projectId: number,
    options: { search?: string | undefined; offset: number; limit: number },
  ): Promise<{ items: Label[]; total: number }>;
  /** By id, or else by title (GitLab's `label_id` is either). */
  find(projectId: number, idOrTitle: string): Promise<Label | null>;
  byTitles(projectId: number, titles: string[]): Promise<Label[]>;
  /** ConflictError("Label already exists") when the project has one of that title. */
  create(options: { label: NewLabel; event: (created: Label) => OutgoingEvent; actor: EventActor | null }): Promise<Label>;
  /** Writes the label and renames it wherever it is carried; ConflictError when the new title is taken. */
  update(options: { label: Label; previousTitle: string; event: OutgoingEvent; actor: EventActor | null }): Promise<void>;
  /** Removes the label and takes it off whatever carries it. */
  delete(options: { label: Label; event: OutgoingEvent; actor: EventActor | null }): Promise<void>;
  /** Removes the label, leaving its title on what carries it (a group label of that title took its place). */
  replace(options: { label: Label; event: OutgoingEvent; actor: EventActor | null }): Promise<void>;
  /** Adds the titles the project lacks, each with `color`, and their events; existing ones stay as they are. */
  ensure(options: {
    projectId: number;
    titles: string[];
    color: string;
    event: (created: Label) => OutgoingEvent;
    actor: EventActor | null;
  }): Promise<void>;
  counts(projectId: number, titles: string[]): Promise<Map<string, LabelCounts>>;
}

const CONFLICT = { conflict: 'Label already exists' };

export class PgLabelStore implements LabelStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async list(projectId: number, options: { search?: string | undefined; offset: number; limit: number }) {
    const pattern = options.search ? likePattern(options.search) : undefined;
    const where = pattern ? { projectId, $or: [{ title: { $ilike: pattern } }, { description: { $ilike: pattern } }] } : { projectId };
    const [items, total] = await this.#em.findAndCount(Label, where, {
      orderBy: [{ title: 'asc' }, { id: 'asc' }],
      offset: options.offset,
      limit: options.limit,
    });
    return { items, total };
  }

  async find(projectId: number, idOrTitle: string): Promise<Label | null> {
    const em = this.#em;
    const byId = /^\d{1,15}$/.test(idOrTitle) ? await em.findOne(Label, { projectId, id: Number(idOrTitle) }) : null;
    return byId ?? em.findOne(Label, { projectId, title: idOrTitle });
  }

  byTitles(projectId: number, titles: string[]): Promise<Label[]> {
    if (titles.length === 0) return Promise.resolve([]);
    return this.#em.find(Label, { projectId, title: { $in: titles } }, { orderBy: { title: 'asc' } });
  }

  async create(options: { label: NewLabel; event: (created: Label) => OutgoingEvent; actor: EventActor | null }): Promise<Label> {
    try {
      const em = this.#em;
      return await insertWithEvent(em, Label, options.label as Label, options);
    } catch (error) {
      throw translateDbError(error, CONFLICT);
    }
  }

  async update(options: { label: Label; previousTitle: string; event: OutgoingEvent; actor: EventActor | null }): Promise<void> {
    const { id, ...changes } = options.label;
    try {
      const em = this.#em;
      await em.nativeUpdate(Label, { id }, changes);
      if (options.previousTitle !== options.label.title) {
        for (const table of LABELLED_TABLES) {
          await em.execute(`update ${table} set labels = array_replace(labels, ?, ?) where project_id = ? and labels @> array[?]::text[]`, [
            options.previousTitle,
            options.label.title,
            options.label.projectId,
            options.previousTitle,
          ]);
        }
      }
      recordEvent(em, { ...options.event, actor: options.actor });
    } catch (error) {
      throw translateDbError(error, CONFLICT);
    }
  }

  async delete(options: { label: Label; event: OutgoingEvent; actor: EventActor | null }): Promise<void> {
    const em = this.#em;
    await em.nativeDelete(Label, { id: options.label.id });
    for (const table of LABELLED_TABLES) {
      await em.execute(`update ${table} set labels = array_remove(labels, ?) where project_id = ? and labels @> array[?]::text[]`, [
        options.label.title,
        options.label.projectId,
        options.label.title,
      ]);
    }
    recordEvent(em, { ...options.event, actor: options.actor });
  }

  async replace(options: { label: Label; event: OutgoingEvent; actor: EventActor | null }): Promise<void> {
    const em = this.#em;
    await em.nativeDelete(Label, { id: options.label.id });
    recordEvent(em, { ...options.event, actor: options.actor });
  }

  async ensure(options: {
    projectId: number;
    titles: string[];
    color: string;
    event: (created: Label) => OutgoingEvent;
    actor: EventActor | null;
  }): Promise<void> {
    if (options.titles.length === 0) return;
    const em = this.#em;
    const now = new Date();
    for (const title of options.titles) {
      // Concurrent requests may add the same title: the first one wins, the others keep it.
      const rows = await em.execute<Array<{ id: string }>>(
        'insert into labels (project_id, title, color, created_at, updated_at) values (?, ?, ?, ?, ?) on conflict (project_id, title) do nothing returning id',
        [options.projectId, title, options.color, now, now],
      );
      const [row] = rows;
      if (!row) continue;
      const created = {
        id: Number(row.id),
        projectId: options.projectId,
        title,
        color: options.color,
        description: null,
        priority: null,
        createdAt: now,
        updatedAt: now,
      };
      recordEvent(em, { ...options.event(created), actor: options.actor });
    }
    await em.flush();
  }

  async counts(projectId: number, titles: string[]): Promise<Map<string, LabelCounts>> {
    const counts = new Map(titles.map((title) => [title, { openMergeRequests: 0, openIssues: 0, closedIssues: 0 }]));
    if (titles.length === 0) return counts;
    const titleArray = `array[${titles.map(() => '?').join(', ')}]::text[]`;
    const rows = await this.#em.execute<Array<{ title: string; kind: string; state: string; count: string }>>(
      `select carried.title, 'merge_request' as kind, state, count(*) as count
         from merge_requests, unnest(labels) as carried (title)
        where project_id = ? and state = 'opened' and labels && ${titleArray} and carried.title = any(${titleArray})
        group by carried.title, state
       union all
       select carried.title, 'issue' as kind, state, count(*) as count
         from issues, unnest(labels) as carried (title)
        where project_id = ? and labels && ${titleArray} and carried.title = any(${titleArray})
        group by carried.title, state`,
      [projectId, ...titles, ...titles, projectId, ...titles, ...titles],
    );
    for (const row of rows) {
      const entry = counts.get(row.title);
      if (!entry) continue;
      if (row.kind === 'merge_request') entry.openMergeRequests = Number(row.count);
      else if (row.state === 'opened') entry.openIssues = Number(row.count);
      else entry.closedIssues = Number(row.count);
    }
    return counts;
  }
}
