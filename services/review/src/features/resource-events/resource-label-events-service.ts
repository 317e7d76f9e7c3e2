import { NotFoundError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import type { Noteable } from '../notes/noteable.ts';
import type { ResourceLabelEvent } from './resource-label-event.entity.ts';
import type { ResourceLabelEventStore } from './resource-label-events-store.ts';

/** The label changes of merge requests and issues (GitLab's resource label events): an `add` per label added, a `remove` per label removed. */
export class ResourceLabelEventsService {
  readonly #store: ResourceLabelEventStore;

  constructor(options: { store: ResourceLabelEventStore }) {
    this.#store = options.store;
  }

  /** Records what differs between the labels a merge request or issue has now and those its history says it had, in the caller's transaction. */
  async observe(options: { noteable: Noteable & { id: number }; labels: string[]; actor: EventActor; at: Date }): Promise<void> {
    const { noteable } = options;
    const resource = { resourceType: noteable.type, resourceId: noteable.id };
    const had = new Set(await this.#store.current(resource));
    const has = new Set(options.labels);
    const event = (labelTitle: string, action: 'add' | 'remove') => ({
      projectId: noteable.projectId,
      ...resource,
      userId: options.actor.id,
      labelTitle,
      action,
      createdAt: options.at,
    });
    const events = [
      ...[...has].filter((title) => !had.has(title)).map((title) => event(title, 'add')),
      ...[...had].filter((title) => !has.has(title)).map((title) => event(title, 'remove')),
    ];
    if (events.length > 0) await this.#store.add(events);
  }

  list(noteable: Noteable, window: { offset: number; limit: number }) {
    return this.#store.list({ resourceType: noteable.type, resourceId: noteable.id ?? 0, ...window });
  }

  async get(noteable: Noteable, id: number): Promise<ResourceLabelEvent> {
    const found = await this.#store.find({ resourceType: noteable.type, resourceId: noteable.id ?? 0, id });
    if (!found) throw new NotFoundError();
    return found;
  }
}
