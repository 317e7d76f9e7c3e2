import type { AuthenticatedCaller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient, UserState, Visibility } from '@platform/proto/identity/v1';
import type { UserSummary } from '../core/user-directory.ts';

/** GitLab's group as approval rules show it. */
export interface GroupSummary {
  id: number;
  name: string;
  path: string;
  description: string;
  visibility: 'private' | 'internal' | 'public';
  full_name: string;
  full_path: string;
  parent_id: number | null;
  avatar_url: null;
  web_url: string;
}

/** What a user may do in a project, as approving needs to know. */
export interface ProjectRole {
  accessLevel: number;
  isAdmin: boolean;
}

/** What approval rules and code owners need to know from identity about users and groups. */
export interface ApproverDirectory {
  /** Groups that exist among `ids`, by id. */
  groups(ids: number[]): Promise<Map<number, GroupSummary>>;
  /** A group by id or full path; undefined when there is none. */
  group(idOrPath: string): Promise<GroupSummary | undefined>;
  /** The active direct members of each group that exists among `ids`. */
  groupMembers(ids: number[]): Promise<Map<number, number[]>>;
  /** Users by username (case-insensitive), as CODEOWNERS names them. */
  usersByUsername(usernames: string[]): Promise<UserSummary[]>;
  /** The ids of the users commit emails belong to (verified addresses only, as GitLab matches committers). */
  userIdsByCommitEmail(emails: string[]): Promise<number[]>;
  /** Each user's role in the project (level 0 for none). */
  projectRoles(projectId: number, userIds: number[]): Promise<Map<number, ProjectRole>>;
  /** Whether `password` is the caller's. */
  verifyPassword(caller: AuthenticatedCaller, password: string): Promise<boolean>;
}

const VISIBILITIES: Record<number, GroupSummary['visibility']> = {
  [Visibility.VISIBILITY_PRIVATE]: 'private',
  [Visibility.VISIBILITY_INTERNAL]: 'internal',
  [Visibility.VISIBILITY_PUBLIC]: 'public',
};

/** Asks identity over gRPC, on review's own behalf except for the caller's password. */
export class GrpcApproverDirectory implements ApproverDirectory {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async group(idOrPath: string): Promise<GroupSummary | undefined> {
    try {
      const { group } = await callUnary(this.#client.resolveGroup.bind(this.#client), { idOrPath });
      if (!group) return undefined;
      return {
        id: group.id,
        name: group.name,
        path: group.path,
        description: '',
        visibility: VISIBILITIES[group.visibility] ?? 'private',
        full_name: group.fullName,
        full_path: group.fullPath,
        parent_id: group.parentId || null,
        avatar_url: null,
        web_url: group.webUrl,
      };
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  async groups(ids: number[]): Promise<Map<number, GroupSummary>> {
    const found = await Promise.all([...new Set(ids)].map((id) => this.group(String(id))));
    return new Map(found.filter((group) => group !== undefined).map((group) => [group.id, group]));
  }

  async groupMembers(ids: number[]): Promise<Map<number, number[]>> {
    if (ids.length === 0) return new Map();
    const response = await callUnary(this.#client.getGroupMembers.bind(this.#client), { groupIds: [...new Set(ids)] });
    return new Map(response.groups.map((group) => [group.groupId, group.userIds]));
  }

  async usersByUsername(usernames: string[]): Promise<UserSummary[]> {
    if (usernames.length === 0) return [];
    const response = await callUnary(this.#client.findUsersByUsername.bind(this.#client), { usernames: [...new Set(usernames)] });
    return response.users.map((user) => ({
      id: user.id,
      username: user.username,
      name: user.name,
      state: user.state === UserState.USER_STATE_BLOCKED ? 'blocked' : 'active',
      avatar_url: user.avatarUrl || null,
      web_url: user.webUrl,
    }));
  }

  async userIdsByCommitEmail(emails: string[]): Promise<number[]> {
    if (emails.length === 0) return [];
    const response = await callUnary(this.#client.findUsersByEmail.bind(this.#client), { emails: [...new Set(emails)] });
    return response.users.map((user) => user.id);
  }

  async projectRoles(projectId: number, userIds: number[]): Promise<Map<number, ProjectRole>> {
    if (userIds.length === 0) return new Map();
    const response = await callUnary(this.#client.getProjectAccessLevels.bind(this.#client), {
      projectId,
      userIds: [...new Set(userIds)],
    });
    return new Map(response.users.map((user) => [user.userId, { accessLevel: user.accessLevel, isAdmin: user.isAdmin }]));
  }

  async verifyPassword(caller: AuthenticatedCaller, password: string): Promise<boolean> {
    return (await callUnary(this.#client.verifyPassword.bind(this.#client), { password }, { caller })).valid;
  }

  close(): void {
    this.#client.close();
  }
}
