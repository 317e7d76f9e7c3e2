import { NotFoundError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import type { Noteable } from '../notes/noteable.ts';
import type { NotesService } from '../notes/notes-service.ts';
import type { ResourceStateEvent } from './resource-state-event.entity.ts';
import type { ResourceStateEventStore } from './resource-state-events-store.ts';

/** A state a merge request or an issue was put in. */
export type ResourceState = 'closed' | 'reopened' | 'merged';

/**
 * The state changes of merge requests and issues (GitLab's resource state events), each also
 * written as the system note GitLab writes for it (`closed`, `reopened`, `merged`).
 */
export class ResourceStateEventsService {
  readonly #em: EntityManager;
  readonly #store: ResourceStateEventStore;
  readonly #notes: Pick<NotesService, 'recordSystemNote'>;

  constructor(options: { em: EntityManager; store: ResourceStateEventStore; notes: Pick<NotesService, 'recordSystemNote'> }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#notes = options.notes;
  }

  async record(options: { noteable: Noteable & { id: number }; state: ResourceState; actor: EventActor; at: Date }): Promise<void> {
    const { noteable, actor } = options;
    await this.#em.transactional(async () => {
      await this.#store.add({
        projectId: noteable.projectId,
        resourceType: noteable.type,
        resourceId: noteable.id,
        userId: actor.id,
        state: options.state,
        createdAt: options.at,
      });
      await this.#notes.recordSystemNote({ noteable, authorId: actor.id, actor, body: options.state });
    });
  }

  list(noteable: Noteable, window: { offset: number; limit: number }) {
    return this.#store.list({ resourceType: noteable.type, resourceId: noteable.id ?? 0, ...window });
  }

  async get(noteable: Noteable, id: number): Promise<ResourceStateEvent> {
    const found = await this.#store.find({ resourceType: noteable.type, resourceId: noteable.id ?? 0, id });
    if (!found) throw new NotFoundError();
    return found;
  }
}
