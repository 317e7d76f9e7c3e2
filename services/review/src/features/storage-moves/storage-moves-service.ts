import type { ApplicationSettingsSource } from '@platform/admin-client';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { RepositoryStorages } from '../repositories/repository-storages.ts';
import type { RepositoryStorageMove } from './repository-storage-move.entity.ts';
import type { StorageMoveStore } from './storage-moves-store.ts';

/**
 * Scheduling repository storage moves, as GitLab's API does: a move of one project's repository
 * (refused while the repository is read-only, as it is during another move), or of every
 * repository on a storage. Without a destination, `repository_storages_weighted` draws one (which
 * may be the storage it is on: such a move changes nothing, as in GitLab).
 */
export class StorageMovesService {
  readonly #em: EntityManager;
  readonly #store: StorageMoveStore;
  readonly #repositories: RepositoriesService;
  readonly #storages: RepositoryStorages;
  readonly #settings: ApplicationSettingsSource;

  constructor(options: {
    em: EntityManager;
    store: StorageMoveStore;
    repositories: RepositoriesService;
    storages: RepositoryStorages;
    settings: ApplicationSettingsSource;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#repositories = options.repositories;
    this.#storages = options.storages;
    this.#settings = options.settings;
  }

  /** True when `storage` is configured: routes refuse other names before scheduling. */
  knows(storage: string): boolean {
    return this.#storages.has(storage);
  }

  #destination(given: string | undefined): string {
    return given ?? this.#storages.pick(this.#settings.current().repositoryStoragesWeighted);
  }

  async scheduleForProject(options: {
    projectId: number;
    destination: string | undefined;
    actor: EventActor;
  }): Promise<RepositoryStorageMove> {
    if (options.destination !== undefined && !this.knows(options.destination)) {
      throw new FieldValidationError({ destination_storage_name: ['is not included in the list'] });
    }
    // A project whose repository was never used gets it now: there is something to move.
    await this.#repositories.ensure(options.projectId);
    const result = await this.#em.transactional(() =>
      this.#store.schedule({ projectId: options.projectId, destinationStorageName: this.#destination(options.destination) }, options.actor),
    );
    if ('refused' in result) throw new FieldValidationError({ project: ['is read-only'] });
    return result.move;
  }

  /** Schedules a move of every writable repository on `source`; one being moved already is left alone. */
  async scheduleFromStorage(options: { source: string; destination: string | undefined; actor: EventActor }): Promise<number> {
    let scheduled = 0;
    for (const projectId of await this.#store.projectsOn(options.source)) {
      const result = await this.#em.transactional(() =>
        this.#store.schedule({ projectId, destinationStorageName: this.#destination(options.destination) }, options.actor),
      );
      if ('move' in result) scheduled += 1;
    }
    return scheduled;
  }

  async find(id: number, projectId?: number): Promise<RepositoryStorageMove> {
    const move = await this.#store.find(id, projectId);
    if (!move) throw new NotFoundError();
    return move;
  }

  list(window: { offset: number; limit: number }, projectId?: number) {
    return this.#store.list(window, projectId);
  }
}
