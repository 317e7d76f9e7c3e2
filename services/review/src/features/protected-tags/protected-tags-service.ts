import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import { NotFoundError, UnprocessableError } from '@platform/errors';
import type { TagProtection } from '../protected-branches/branch-protection.ts';
import type { ProtectedTagsReadModel } from './protected-tags-read-model.ts';
import type { ProtectedTagStore } from './protected-tags-store.ts';

/** A project's protected tags: listed, read, protected and unprotected; pushes and the tags API are judged by them. */
export class ProtectedTagsService {
  readonly #em: EntityManager;
  readonly #store: ProtectedTagStore;
  readonly #readModel: ProtectedTagsReadModel;

  constructor(options: { em: EntityManager; store: ProtectedTagStore; readModel: ProtectedTagsReadModel }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#readModel = options.readModel;
  }

  list(projectId: number): Promise<TagProtection[]> {
    return this.#readModel.list(projectId);
  }

  async get(projectId: number, name: string): Promise<TagProtection> {
    const [found] = await this.#readModel.list(projectId, name);
    if (!found) throw new NotFoundError();
    return found;
  }

  /** Protects `name` (a wildcard protects every tag it matches); GitLab's 422 when the project protects it already. */
  async protect(input: { projectId: number; name: string; createAccessLevel: number; actor: EventActor | null }): Promise<TagProtection> {
    const id = await this.#em.transactional(() =>
      this.#store.insert({
        projectId: input.projectId,
        name: input.name,
        createAccessLevels: [input.createAccessLevel],
        actor: input.actor,
      }),
    );
    if (id === null) throw new UnprocessableError(['Name has already been taken']);
    return this.get(input.projectId, input.name);
  }

  async unprotect(input: { projectId: number; name: string; actor: EventActor | null }): Promise<void> {
    const deleted = await this.#em.transactional(() => this.#store.delete(input));
    if (!deleted) throw new NotFoundError();
  }
}
