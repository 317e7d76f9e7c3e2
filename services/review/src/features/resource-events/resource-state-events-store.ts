import type { EntityManager } from '@platform/db';
import { ResourceStateEvent } from './resource-state-event.entity.ts';

export type NewResourceStateEvent = Omit<ResourceStateEvent, 'id' | 'mergeRequestId' | 'issueId'>;

export interface ResourceStateEventStore {
  /** Adds the event, in the caller's transaction. */
  add(event: NewResourceStateEvent): Promise<ResourceStateEvent>;
  /** A page of one merge request's or issue's events, oldest first. */
  list(options: {
    resourceType: string;
    resourceId: number;
    offset: number;
    limit: number;
  }): Promise<{ items: ResourceStateEvent[]; total: number }>;
  find(options: { resourceType: string; resourceId: number; id: number }): Promise<ResourceStateEvent | null>;
}

export class PgResourceStateEventStore implements ResourceStateEventStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async add(event: NewResourceStateEvent): Promise<ResourceStateEvent> {
    const created = this.#em.create(ResourceStateEvent, event as ResourceStateEvent);
    await this.#em.flush();
    return created;
  }

  async list(options: { resourceType: string; resourceId: number; offset: number; limit: number }) {
    const [items, total] = await this.#em.findAndCount(
      ResourceStateEvent,
      { resourceType: options.resourceType, resourceId: options.resourceId },
      { orderBy: { id: 'asc' }, offset: options.offset, limit: options.limit },
    );
    return { items, total };
  }

  find(options: { resourceType: string; resourceId: number; id: number }): Promise<ResourceStateEvent | null> {
    return this.#em.findOne(ResourceStateEvent, { resourceType: options.resourceType, resourceId: options.resourceId, id: options.id });
  }
}
