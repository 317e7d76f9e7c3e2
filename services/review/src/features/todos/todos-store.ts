import { insertUnlessPresent, type EntityManager } from '@platform/db';
import { Todo } from './todo.entity.ts';

/** What `GET /todos` filters on, besides the user. */
export interface TodoFilter {
  userId: number;
  state: 'pending' | 'done';
  action?: string | undefined;
  authorId?: number | undefined;
  projectId?: number | undefined;
  targetType?: string | undefined;
}

export interface TodoStore {
  /** Null when the user already has a pending marked to-do for the target. */
  create(todo: Omit<Todo, 'id'>): Promise<Todo | null>;
  /** Newest first. */
  list(filter: TodoFilter): Promise<Todo[]>;
  find(userId: number, id: number): Promise<Todo | null>;
  /** Marks the user's pending to-dos done: these, or all of them. */
  markDone(userId: number, ids?: number[]): Promise<void>;
  pendingCount(userId: number): Promise<number>;
}

export class PgTodoStore implements TodoStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  create(todo: Omit<Todo, 'id'>): Promise<Todo | null> {
    return insertUnlessPresent(this.#em, Todo, todo as Todo);
  }

  list(filter: TodoFilter): Promise<Todo[]> {
    return this.#em.find(
      Todo,
      {
        userId: filter.userId,
        state: filter.state,
        ...(filter.action === undefined ? {} : { action: filter.action }),
        ...(filter.authorId === undefined ? {} : { authorId: filter.authorId }),
        ...(filter.projectId === undefined ? {} : { projectId: filter.projectId }),
        ...(filter.targetType === undefined ? {} : { targetType: filter.targetType }),
      },
      { orderBy: { id: 'desc' } },
    );
  }

  find(userId: number, id: number): Promise<Todo | null> {
    return this.#em.findOne(Todo, { id, userId });
  }

  async markDone(userId: number, ids?: number[]): Promise<void> {
    await this.#em.nativeUpdate(
      Todo,
      { userId, state: 'pending', ...(ids ? { id: { $in: ids } } : {}) },
      { state: 'done', updatedAt: new Date() },
    );
  }

  pendingCount(userId: number): Promise<number> {
    return this.#em.count(Todo, { userId, state: 'pending' });
  }
}
