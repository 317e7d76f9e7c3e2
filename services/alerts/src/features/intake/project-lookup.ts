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

/** Asks identity's ResolveProject over gRPC. */
export class GrpcProjectLookup implements ProjectLookup {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async projectIdOf(path: string): Promise<number | null> {
    try {
      const response = await callUnary(this.#client.resolveProject.bind(this.#client), { idOrPath: path });
      return response.project?.id ?? null;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  close(): void {
    this.#client.close();
  }
}
