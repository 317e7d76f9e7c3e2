import type { EntityManager } from '@platform/db';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import { ACCESS_LEVEL, type ProjectAccess } from '@platform/identity-client';
import {
  admits,
  mayOnBranch,
  type AccessEntry,
  type Actor,
  type BranchProtection,
  type ProtectedAction,
  type PushPolicy,
  type TagProtection,
} from './branch-protection.ts';
import type { ProtectedBranchInput, ProtectedBranchStore } from './protected-branches-store.ts';
import type { ProtectionChange } from './protected-branches.events.ts';

/**
 * GitLab's default protection of a default branch (`default_branch_protection` 2, "fully
 * protected"): maintainers push and merge, nobody force-pushes. A developer's first push into an
 * empty repository goes through, as nothing is protected yet.
 */
export const DEFAULT_BRANCH_PROTECTION: Omit<ProtectedBranchInput, 'name'> = {
  accessLevels: {
    push: [{ accessLevel: ACCESS_LEVEL.MAINTAINER }],
    merge: [{ accessLevel: ACCESS_LEVEL.MAINTAINER }],
    unprotect: [{ accessLevel: ACCESS_LEVEL.MAINTAINER }],
  },
  allowForcePush: false,
  codeOwnerApprovalRequired: false,
};

/** The direct members of groups, by group id: identity knows them. */
export interface GroupMembership {
  groupMembers(groupIds: number[]): Promise<Map<number, number[]>>;
}

/** A project's protected tags: pushes are judged by them too (the protected tags feature keeps them). */
export interface TagProtections {
  list(projectId: number): Promise<TagProtection[]>;
}

export class ProtectedBranchesService {
  readonly #em: EntityManager;
  readonly #store: ProtectedBranchStore;
  readonly #groups: GroupMembership;
  readonly #tags: TagProtections;

  constructor(options: { em: EntityManager; store: ProtectedBranchStore; groups: GroupMembership; tags: TagProtections }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#groups = options.groups;
    this.#tags = options.tags;
  }

  /**
   * A user acting in a project with their role there, and the groups they belong to among those
   * the project's protected branches name (asked only when some entry names a group).
   */
  async actorOf(options: { projectId: number; userId: number; accessLevel: number; isAdmin: boolean }): Promise<Actor> {
    const named = (await this.#store.list(options.projectId)).flatMap((protection) =>
      Object.values(protection.accessLevels).flatMap((entries) => entries.flatMap((entry) => (entry.groupId ? [entry.groupId] : []))),
    );
    const members = named.length === 0 ? new Map<number, number[]>() : await this.#groups.groupMembers([...new Set(named)]);
    const groupIds = [...members].filter(([, userIds]) => userIds.includes(options.userId)).map(([groupId]) => groupId);
    return { accessLevel: options.accessLevel, isAdmin: options.isAdmin, userId: options.userId, groupIds };
  }

  list(projectId: number): Promise<BranchProtection[]> {
    return this.#store.list(projectId);
  }

  /**
   * GitLab's `can_update_branch?`: whether the user may push to the branch or merge into it, its
   * protection weighed; nobody may in an archived project, which is read-only.
   */
  async mayUpdateBranch(options: { project: ProjectAccess; userId: number; branch: string }): Promise<boolean> {
    const { project, branch } = options;
    if (project.archived) return false;
    const [protections, actor] = await Promise.all([
      this.list(project.id),
      this.actorOf({ projectId: project.id, userId: options.userId, accessLevel: project.accessLevel, isAdmin: project.isAdmin }),
    ]);
    return (['push', 'merge'] as const).some((action) => mayOnBranch({ action, branch, protections, actor }));
  }

  async get(projectId: number, name: string): Promise<BranchProtection> {
    const found = await this.#store.find(projectId, name);
    if (!found) throw new NotFoundError();
    return found;
  }

  create(change: ProtectionChange, input: ProtectedBranchInput): Promise<BranchProtection> {
    return this.#em.transactional(() => this.#store.create(change, input));
  }

  async update(
    change: ProtectionChange,
    name: string,
    changes: {
      allowForcePush?: boolean | undefined;
      codeOwnerApprovalRequired?: boolean | undefined;
      accessLevels?: Partial<Record<ProtectedAction, AccessEntry[]>>;
    },
  ): Promise<BranchProtection> {
    const updated = await this.#em.transactional(() => this.#store.update(change, name, changes));
    if (!updated) throw new NotFoundError();
    return updated;
  }

  /** Removes the protection; only those its unprotect levels admit may. */
  async unprotect(change: ProtectionChange, name: string, actor: Actor): Promise<void> {
    const found = await this.get(change.project.id, name);
    if (!admits(found.accessLevels.unprotect, actor)) throw new ForbiddenError();
    await this.#em.transactional(() => this.#store.delete(change, name));
  }

  /** Protects a repository's first branch, the default branch, as GitLab does by default. */
  async protectDefaultBranch(change: ProtectionChange, branch: string): Promise<void> {
    await this.#em.transactional(() => this.#store.createIfMissing(change, { name: branch, ...DEFAULT_BRANCH_PROTECTION }));
  }

  /** What the pre-receive hook needs to judge a push by `pusher`. */
  async pushPolicy(options: { projectId: number; pusher: Actor; defaultBranch: string }): Promise<PushPolicy> {
    const protections = await this.#store.list(options.projectId);
    const tagProtections = await this.#tags.list(options.projectId);
    return { protections, tagProtections, pusher: options.pusher, defaultBranch: options.defaultBranch };
  }
}
