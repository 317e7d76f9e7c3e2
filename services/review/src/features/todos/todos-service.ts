import { NotFoundError } from '@platform/errors';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import type { Todo } from './todo.entity.ts';
import type { TodoFilter, TodoStore } from './todos-store.ts';

/** A user's to-dos about merge requests: marked by themselves, done when they say so. */
export class TodosService {
  readonly #store: TodoStore;

  constructor(options: { store: TodoStore }) {
    this.#store = options.store;
  }

  /** Marks the merge request as a to-do of the user; null when one is pending already (GitLab's 304). */
  mark(mergeRequest: MergeRequest, userId: number): Promise<Todo | null> {
    const now = new Date();
    return this.#store.create({
      userId,
      projectId: mergeRequest.projectId,
      targetType: 'MergeRequest',
      targetId: mergeRequest.id,
      // Marking one's own to-do: the user is its author too.
      authorId: userId,
      action: 'marked',
      state: 'pending',
      createdAt: now,
      updatedAt: now,
    });
  }

  list(filter: TodoFilter): Promise<Todo[]> {
    return this.#store.list(filter);
  }

  async markDone(userId: number, id: number): Promise<Todo> {
    const todo = await this.#store.find(userId, id);
    if (!todo) throw new NotFoundError('Todo');
    await this.#store.markDone(userId, [id]);
    return { ...todo, state: 'done' };
  }

  markAllDone(userId: number): Promise<void> {
    return this.#store.markDone(userId);
  }

  pendingCount(userId: number): Promise<number> {
    return this.#store.pendingCount(userId);
  }
}
