import { NotFoundError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import type { IssuableTransition } from '../core/issuable-history.ts';
import type { Noteable } from '../notes/noteable.ts';
import type { NotesService } from '../notes/notes-service.ts';
import type { ResourceStateEvent } from './resource-state-event.entity.ts';
import type { ResourceStateEventStore } from './resource-state-events-store.ts';

/**
 * The state changes of merge requests and issues (GitLab's resource state events), each also
 * written as the system note GitLab writes for it (`closed`, `reopened`, `merged`).
 */
export class ResourceStateEventsService {
  readonly #store: ResourceStateEventStore;
  readonly #notes: Pick<NotesService, 'recordSystemNote'>;

  constructor(options: { store: ResourceStateEventStore; notes: Pick<NotesService, 'recordSystemNote'> }) {
    this.#store = options.store;
    this.#notes = options.notes;
  }

  /** Records the change of state and its system note, in the caller's transaction. */
  async record(options: { noteable: Noteable & { id: number }; state: IssuableTransition; actor: EventActor; at: Date }): Promise<void> {
    const { noteable, actor } = options;
    await this.#store.add({
      projectId: noteable.projectId,
      resourceType: noteable.type,
      resourceId: noteable.id,
      userId: actor.id,
      state: options.state,
      createdAt: options.at,
    });
    await this.#notes.recordSystemNote({ noteable, actor, body: options.state });
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
