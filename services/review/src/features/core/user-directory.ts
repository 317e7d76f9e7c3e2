import type { Caller } from '@platform/auth';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient, UserState } from '@platform/proto/identity/v1';

/** GitLab's user summary (`user/basic.json`), as merge requests show authors and assignees. */
export interface UserSummary {
  id: number;
  username: string;
  name: string;
  state: 'active' | 'blocked';
  avatar_url: string | null;
  web_url: string;
}

/** Who users are, by id: identity owns them. */
export interface UserDirectory {
  /** The users that exist among `ids`; unknown ids are left out. */
  users(ids: number[], caller: Caller): Promise<Map<number, UserSummary>>;
  /** The ids of a project's namespace and its ancestors, top-level first; asked on the service's own behalf. */
  namespaceIdsOf(projectId: number): Promise<number[]>;
  /** A project's names, as to-dos show their project; asked on the service's own behalf. */
  projectNames(projectId: number): Promise<ProjectNames>;
  close(): void;
}

/** GitLab's project summary in a to-do: `name`, `name_with_namespace`, `path`, `path_with_namespace`. */
export interface ProjectNames {
  id: number;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
}

/** Asks identity's GetUsers over gRPC. */
export class GrpcUserDirectory implements UserDirectory {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async users(ids: number[], caller: Caller): Promise<Map<number, UserSummary>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const response = await callUnary(this.#client.getUsers.bind(this.#client), { ids: unique }, { caller });
    return new Map(
      response.users.map((user) => [
        user.id,
        {
          id: user.id,
          username: user.username,
          name: user.name,
          state: user.state === UserState.USER_STATE_BLOCKED ? 'blocked' : 'active',
          avatar_url: user.avatarUrl || null,
          web_url: user.webUrl,
        },
      ]),
    );
  }

  async namespaceIdsOf(projectId: number): Promise<number[]> {
    const response = await callUnary(this.#client.resolveProject.bind(this.#client), { idOrPath: String(projectId) });
    return response.project?.namespaceAncestorIds ?? [];
  }

  async projectNames(projectId: number): Promise<ProjectNames> {
    const { project } = await callUnary(this.#client.resolveProject.bind(this.#client), { idOrPath: String(projectId) });
    return {
      id: projectId,
      name: project?.name ?? '',
      name_with_namespace: project?.nameWithNamespace ?? '',
      path: project?.path ?? '',
      path_with_namespace: project?.pathWithNamespace ?? '',
    };
  }

  close(): void {
    this.#client.close();
  }
}

/** Users known in advance, for tests that run without identity. */
export class FixedUserDirectory implements UserDirectory {
  readonly #users: Map<number, UserSummary>;

  constructor(users: Array<{ id: number; username: string }>) {
    this.#users = new Map(
      users.map(({ id, username }) => [
        id,
        {
          id,
          username,
          name: username,
          state: 'active',
          avatar_url: `http://localhost/avatars/${id}.png`,
          web_url: `http://localhost/${username}`,
        },
      ]),
    );
  }

  async users(ids: number[]): Promise<Map<number, UserSummary>> {
    return new Map(ids.flatMap((id) => (this.#users.has(id) ? [[id, this.#users.get(id) as UserSummary] as const] : [])));
  }

  async namespaceIdsOf(): Promise<number[]> {
    return [];
  }

  async projectNames(projectId: number): Promise<ProjectNames> {
    const name = `project-${projectId}`;
    return { id: projectId, name, name_with_namespace: name, path: name, path_with_namespace: name };
  }

  close(): void {}
}
