import type { EntityManager } from '@platform/db';
import { ResourceLabelEvent } from './resource-label-event.entity.ts';

export type NewResourceLabelEvent = Omit<ResourceLabelEvent, 'id' | 'mergeRequestId' | 'issueId'>;

interface Resource {
  resourceType: string;
  resourceId: number;
}

export interface ResourceLabelEventStore {
  /** Adds the events, in the caller's transaction. */
  add(events: NewResourceLabelEvent[]): Promise<void>;
  /** The label titles a merge request or issue has as far as its history knows: those whose newest event is an `add`. */
  current(resource: Resource): Promise<string[]>;
  /** A page of one merge request's or issue's events, oldest first. */
  list(options: Resource & { offset: number; limit: number }): Promise<{ items: ResourceLabelEvent[]; total: number }>;
  find(options: Resource & { id: number }): Promise<ResourceLabelEvent | null>;
}

export class PgResourceLabelEventStore implements ResourceLabelEventStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async add(events: NewResourceLabelEvent[]): Promise<void> {
    for (const event of events) this.#em.create(ResourceLabelEvent, event as ResourceLabelEvent);
    await this.#em.flush();
  }

  async current(resource: Resource): Promise<string[]> {
    const rows = await this.#em.execute<Array<{ label_title: string; action: string }>>(
      `select distinct on (label_title) label_title, action from resource_label_events
        where resource_type = ? and resource_id = ? order by label_title, id desc`,
      [resource.resourceType, resource.resourceId],
    );
    return rows.filter((row) => row.action === 'add').map((row) => row.label_title);
  }

  async list(options: Resource & { offset: number; limit: number }) {
    const [items, total] = await this.#em.findAndCount(
      ResourceLabelEvent,
      { resourceType: options.resourceType, resourceId: options.resourceId },
      { orderBy: { id: 'asc' }, offset: options.offset, limit: options.limit },
    );
    return { items, total };
  }

  find(options: Resource & { id: number }): Promise<ResourceLabelEvent | null> {
    return this.#em.findOne(ResourceLabelEvent, { resourceType: options.resourceType, resourceId: options.resourceId, id: options.id });
  }
}
