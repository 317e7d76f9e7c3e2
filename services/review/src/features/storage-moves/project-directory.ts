import { NotFoundError } from '@platform/errors';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient } from '@platform/proto/identity/v1';

/** What a storage move shows of its project, as GitLab's `ProjectIdentity`. */
export interface ProjectIdentity {
  id: number;
  description: string | null;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
  created_at: string;
}

/** Projects by id, asked of identity on the service's own behalf (administrators see every project). */
export interface ProjectDirectory {
  /** The projects that exist among `ids`; deleted ones are left out. */
  projects(ids: number[]): Promise<Map<number, ProjectIdentity>>;
}

export class GrpcProjectDirectory implements ProjectDirectory {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async projects(ids: number[]): Promise<Map<number, ProjectIdentity>> {
    const found = await Promise.all(
      [...new Set(ids)].map(async (id) => {
        try {
          const { project } = await callUnary(this.#client.resolveProject.bind(this.#client), { idOrPath: String(id) });
          return project ? [project] : [];
        } catch (error) {
          if (error instanceof NotFoundError) return [];
          throw error;
        }
      }),
    );
    return new Map(
      found.flat().map((project) => [
        project.id,
        {
          id: project.id,
          description: project.description || null,
          name: project.name,
          name_with_namespace: project.nameWithNamespace,
          path: project.path,
          path_with_namespace: project.pathWithNamespace,
          created_at: project.createdAt,
        },
      ]),
    );
  }

  close(): void {
    this.#client.close();
  }
}
