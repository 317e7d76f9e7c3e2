import type { EntityManager } from '@platform/db';
import { ResourceMilestoneEvent } from './resource-milestone-event.entity.ts';

export type NewResourceMilestoneEvent = Omit<ResourceMilestoneEvent, 'id' | 'mergeRequestId' | 'issueId'>;

interface Resource {
  resourceType: string;
  resourceId: number;
}

export interface ResourceMilestoneEventStore {
  /** Adds the event, in the caller's transaction. */
  add(event: NewResourceMilestoneEvent): Promise<ResourceMilestoneEvent>;
  /** The newest event of a merge request or issue: what its milestone is as far as its history knows. */
  latest(resource: Resource): Promise<ResourceMilestoneEvent | null>;
  /** A page of one merge request's or issue's events, oldest first. */
  list(options: Resource & { offset: number; limit: number }): Promise<{ items: ResourceMilestoneEvent[]; total: number }>;
  find(options: Resource & { id: number }): Promise<ResourceMilestoneEvent | null>;
}

export class PgResourceMilestoneEventStore implements ResourceMilestoneEventStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async add(event: NewResourceMilestoneEvent): Promise<ResourceMilestoneEvent> {
    const created = this.#em.create(ResourceMilestoneEvent, event as ResourceMilestoneEvent);
    await this.#em.flush();
    return created;
  }

  latest(resource: Resource): Promise<ResourceMilestoneEvent | null> {
    return this.#em.findOne(ResourceMilestoneEvent, { ...resource }, { orderBy: { id: 'desc' } });
  }

  async list(options: Resource & { offset: number; limit: number }) {
    const [items, total] = await this.#em.findAndCount(
      ResourceMilestoneEvent,
      { resourceType: options.resourceType, resourceId: options.resourceId },
      { orderBy: { id: 'asc' }, offset: options.offset, limit: options.limit },
    );
    return { items, total };
  }

  find(options: Resource & { id: number }): Promise<ResourceMilestoneEvent | null> {
    return this.#em.findOne(ResourceMilestoneEvent, { resourceType: options.resourceType, resourceId: options.resourceId, id: options.id });
  }
}
