/**
 * What other services ask review about repositories, on their own behalf: the storages it is
 * configured with (admin lets administrators weigh only those), and a new project's repository
 * (identity shows where it was created).
 */
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { ReviewServiceClient } from '@platform/proto/review/v1';

/** The names of the repository storages review is configured with. */
export interface RepositoryStorageNames {
  list(): Promise<string[]>;
  close(): void;
}

/** Creates a new project's repository unless it exists; answers the storage it is on. */
export interface RepositoryCreation {
  create(options: { projectId: number; forkedFromProjectId: number | null }): Promise<string>;
  close(): void;
}

/** Asks review's ListRepositoryStorages and CreateRepository over gRPC. */
export class GrpcReviewRepositories implements RepositoryStorageNames, RepositoryCreation {
  readonly #client: ReviewServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new ReviewServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async list(): Promise<string[]> {
    return (await callUnary(this.#client.listRepositoryStorages.bind(this.#client), {}, { deadlineMs: 2_000 })).names;
  }

  async create(options: { projectId: number; forkedFromProjectId: number | null }): Promise<string> {
    const response = await callUnary(
      this.#client.createRepository.bind(this.#client),
      { projectId: options.projectId, forkedFromProjectId: options.forkedFromProjectId ?? 0 },
      // git creates the repository (a fork's copies its upstream's): more than the default two seconds on a busy host.
      { deadlineMs: 10_000 },
    );
    return response.storage;
  }

  close(): void {
    this.#client.close();
  }
}

/** Fixed answers: the one `default` storage where review does not run, or the storages a test names. */
export class FixedReviewRepositories implements RepositoryStorageNames, RepositoryCreation {
  readonly #names: string[];
  readonly #createdOn: string;

  constructor(options: { names?: string[]; createdOn?: string } = {}) {
    this.#names = options.names ?? ['default'];
    this.#createdOn = options.createdOn ?? 'default';
  }

  async list(): Promise<string[]> {
    return this.#names;
  }

  async create(): Promise<string> {
    return this.#createdOn;
  }

  close(): void {}
}
