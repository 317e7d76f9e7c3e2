import { LRUCache } from 'lru-cache';
import { NotFoundError } from '@platform/errors';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient } from '@platform/proto/identity/v1';

/**
 * Which project a path names, asked on the service's own behalf: alert intake has no user to
 * ask for, only an integration key checked afterwards.
 */
export interface ProjectLookup {
  /** The id of the project at `path`; null when there is none. */
  projectIdOf(path: string): Promise<number | null>;
  close(): void;
}

/**
 * How long a path's project is remembered. After a rename or transfer the old path keeps naming
 * the project for at most this long; the integration key is still checked against that project.
 */
const REMEMBERED_MS = 30_000;

/** Asks identity's ResolveProject over gRPC, remembering answers briefly: monitoring tools post to few paths, often. */
export class GrpcProjectLookup implements ProjectLookup {
  readonly #client: IdentityServiceClient;
  readonly #ids = new LRUCache<string, number>({ max: 10_000, ttl: REMEMBERED_MS });

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async projectIdOf(path: string): Promise<number | null> {
    const remembered = this.#ids.get(path);
    if (remembered !== undefined) return remembered;
    try {
      const response = await callUnary(this.#client.resolveProject.bind(this.#client), { idOrPath: path });
      const id = response.project?.id;
      if (id === undefined) return null;
      this.#ids.set(path, id);
      return id;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  close(): void {
    this.#client.close();
  }
}
