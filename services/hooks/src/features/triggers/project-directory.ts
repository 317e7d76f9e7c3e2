import { NotFoundError } from '@platform/errors';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient, Visibility } from '@platform/proto/identity/v1';

/** What payloads show of a project; identity owns projects. */
export interface HookProject {
  id: number;
  name: string;
  description: string;
  path: string;
  pathWithNamespace: string;
  namespaceName: string;
  /** The project's namespace and its ancestors, top-level first: whose group hooks see its events. */
  namespaceIds: number[];
  visibility: 'private' | 'internal' | 'public';
  defaultBranch: string;
  webUrl: string;
}

/** What payloads show of a user. */
export interface HookUser {
  id: number;
  name: string;
  username: string;
  avatarUrl: string | null;
}

/** What payloads show of a group, and whose group hooks see its events. */
export interface HookGroup {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  /** The group and its ancestors, top-level first. */
  ancestorIds: number[];
}

/** Projects, groups and users by id, asked on the service's own behalf. */
export interface ProjectDirectory {
  /** Undefined once the project is gone. */
  project(id: number): Promise<HookProject | undefined>;
  /** Undefined once the group is gone, or for a namespace that is no group (a user's). */
  group(id: number): Promise<HookGroup | undefined>;
  users(ids: number[]): Promise<Map<number, HookUser>>;
  close(): void;
}

const VISIBILITIES: Partial<Record<Visibility, HookProject['visibility']>> = {
  [Visibility.VISIBILITY_PRIVATE]: 'private',
  [Visibility.VISIBILITY_INTERNAL]: 'internal',
  [Visibility.VISIBILITY_PUBLIC]: 'public',
};

export class GrpcProjectDirectory implements ProjectDirectory {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async project(id: number): Promise<HookProject | undefined> {
    try {
      const { project } = await callUnary(this.#client.resolveProject.bind(this.#client), { idOrPath: String(id) });
      if (!project) return undefined;
      return {
        id: project.id,
        name: project.name,
        description: project.description,
        path: project.path,
        pathWithNamespace: project.pathWithNamespace,
        namespaceName: project.namespace?.name ?? '',
        namespaceIds: project.namespaceAncestorIds,
        visibility: VISIBILITIES[project.visibility] ?? 'private',
        defaultBranch: project.defaultBranch,
        webUrl: project.webUrl,
      };
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  async group(id: number): Promise<HookGroup | undefined> {
    try {
      const { group } = await callUnary(this.#client.resolveGroup.bind(this.#client), { idOrPath: String(id) });
      if (!group) return undefined;
      return { id: group.id, name: group.name, path: group.path, fullPath: group.fullPath, ancestorIds: group.ancestorIds };
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  async users(ids: number[]): Promise<Map<number, HookUser>> {
    const unique = [...new Set(ids.filter((id) => id > 0))];
    if (unique.length === 0) return new Map();
    const response = await callUnary(this.#client.getUsers.bind(this.#client), { ids: unique });
    return new Map(
      response.users.map((user) => [user.id, { id: user.id, name: user.name, username: user.username, avatarUrl: user.avatarUrl || null }]),
    );
  }

  close(): void {
    this.#client.close();
  }
}
