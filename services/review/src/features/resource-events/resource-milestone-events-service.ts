import { NotFoundError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import type { Noteable } from '../notes/noteable.ts';
import type { ResourceMilestoneEvent } from './resource-milestone-event.entity.ts';
import type { ResourceMilestoneEventStore } from './resource-milestone-events-store.ts';

/**
 * The milestone changes of merge requests and issues (GitLab's resource milestone events): a
 * milestone set is an `add` of it, a milestone taken away a `remove` of the one it had, as
 * GitLab's `ResourceEvents::ChangeMilestoneService` records them.
 */
export class ResourceMilestoneEventsService {
  readonly #store: ResourceMilestoneEventStore;

  constructor(options: { store: ResourceMilestoneEventStore }) {
    this.#store = options.store;
  }

  /** Records the milestone a merge request or issue has now (null for none), when its history says it had another, in the caller's transaction. */
  async observe(options: { noteable: Noteable & { id: number }; milestoneId: number | null; state: string; actor: EventActor; at: Date }) {
    const { noteable } = options;
    const resource = { resourceType: noteable.type, resourceId: noteable.id };
    const latest = await this.#store.latest(resource);
    const current = latest?.action === 'add' ? latest.milestoneId : null;
    if (current === options.milestoneId) return;
    await this.#store.add({
      projectId: noteable.projectId,
      ...resource,
      userId: options.actor.id,
      milestoneId: options.milestoneId ?? (current as number),
      action: options.milestoneId === null ? 'remove' : 'add',
      state: options.state,
      createdAt: options.at,
    });
  }

  list(noteable: Noteable, window: { offset: number; limit: number }) {
    return this.#store.list({ resourceType: noteable.type, resourceId: noteable.id ?? 0, ...window });
  }

  async get(noteable: Noteable, id: number): Promise<ResourceMilestoneEvent> {
    const found = await this.#store.find({ resourceType: noteable.type, resourceId: noteable.id ?? 0, id });
    if (!found) throw new NotFoundError();
    return found;
  }
}
