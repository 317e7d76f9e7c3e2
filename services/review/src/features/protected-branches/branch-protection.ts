/**
 * GitLab's branch and tag protection rules, as plain functions: which protections name a branch, who
 * may push, merge or unprotect, who may create a protected tag, and why a pushed ref update is refused. Both the API and the
 * pre-receive hook (a separate process git runs during a push) decide with these.
 */
import { ACCESS_LEVEL } from '@platform/identity-client/access-level';
import { ZERO_SHA } from '../repositories/git-repository.ts';

export const PROTECTED_ACCESS_LEVELS = [
  ACCESS_LEVEL.NO_ACCESS,
  ACCESS_LEVEL.DEVELOPER,
  ACCESS_LEVEL.MAINTAINER,
  ACCESS_LEVEL.ADMIN,
] as const;

export type ProtectedAction = 'push' | 'merge' | 'unprotect';

/**
 * Who an entry of a protected branch admits: a role (`accessLevel`), or one user or the direct
 * members of one group (then `accessLevel` is GitLab's maintainer default and not consulted).
 */
export interface AccessEntry {
  accessLevel: number;
  userId?: number | null | undefined;
  groupId?: number | null | undefined;
}

/** A protected branch with the roles, users and groups allowed each action. */
export interface BranchProtection {
  id: number;
  name: string;
  accessLevels: Record<ProtectedAction, Array<AccessEntry & { id: number }>>;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
}

/** A protected tag name or wildcard (`v*`) and the roles allowed to create (and so delete) the tags it names. */
export interface TagProtection {
  id: number;
  name: string;
  createAccessLevels: Array<AccessEntry & { id: number }>;
}

/**
 * Who acts: their role in the project and whether they administer the instance; for entries
 * naming users or groups, who they are and which of those groups they belong to.
 */
export interface Actor {
  accessLevel: number;
  isAdmin: boolean;
  userId?: number | undefined;
  groupIds?: number[] | undefined;
}

/** GitLab's refusals of a pushed ref update, as the git CLI shows them (after `GitLab: `). */
export const PUSH_REFUSALS = {
  deleteDefaultBranch: 'The default branch of a project cannot be deleted.',
  forcePushProtectedBranch: 'You are not allowed to force push code to a protected branch on this project.',
  nonMaintainerDeleteProtectedBranch:
    'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  nonWebDeleteProtectedBranch: 'You can only delete protected branches using the web interface.',
  pushProtectedBranch: 'You are not allowed to push code to protected branches on this project.',
  createProtectedBranch: 'You are not allowed to create protected branches on this project.',
  nonWebCreateProtectedBranch: 'You can only create protected branches using the web interface and API.',
  updateProtectedTag: 'Protected tags cannot be updated.',
  nonMaintainerDeleteProtectedTag:
    'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  nonWebDeleteProtectedTag: 'You can only delete protected tags using the web interface.',
  createProtectedTag: 'You are not allowed to create this tag as it is protected.',
};

export const ACCESS_LEVEL_DESCRIPTIONS: Record<number, string> = {
  [ACCESS_LEVEL.NO_ACCESS]: 'No one',
  [ACCESS_LEVEL.DEVELOPER]: 'Developers + Maintainers',
  [ACCESS_LEVEL.MAINTAINER]: 'Maintainers',
  [ACCESS_LEVEL.ADMIN]: 'Admins',
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** GitLab's wildcard match: `*` stands for any run of characters (slashes included); otherwise names are equal. */
export function matchesProtectedName(pattern: string, branch: string): boolean {
  if (!pattern.includes('*')) return pattern === branch;
  const expression = pattern.split('*').map(escapeRegExp).join('.*?');
  return new RegExp(`^${expression}$`, 's').test(branch);
}

export function protectionsOf(branch: string, protections: readonly BranchProtection[]): BranchProtection[] {
  return protections.filter((protection) => matchesProtectedName(protection.name, branch));
}

/**
 * Whether one of `levels` admits the actor: "no one" admits nobody, "admins" only administrators;
 * an entry naming a user or a group admits that user or the group's members who may push at all.
 */
export function admits(levels: readonly AccessEntry[], actor: Actor): boolean {
  const mayPushAtAll = actor.isAdmin || actor.accessLevel >= ACCESS_LEVEL.DEVELOPER;
  return levels.some(({ accessLevel, userId, groupId }) => {
    if (userId) return mayPushAtAll && actor.userId === userId;
    if (groupId) return mayPushAtAll && (actor.groupIds ?? []).includes(groupId);
    if (accessLevel === ACCESS_LEVEL.NO_ACCESS) return false;
    if (accessLevel === ACCESS_LEVEL.ADMIN) return actor.isAdmin;
    return actor.isAdmin || actor.accessLevel >= accessLevel;
  });
}

/**
 * Whether the actor may `action` on `branch`: anyone with developer rights where no protection
 * names it, else as one of the matching protections allows.
 */
export function mayOnBranch(options: {
  action: ProtectedAction;
  branch: string;
  protections: readonly BranchProtection[];
  actor: Actor;
}): boolean {
  const matching = protectionsOf(options.branch, options.protections);
  if (matching.length === 0) return options.actor.isAdmin || options.actor.accessLevel >= ACCESS_LEVEL.DEVELOPER;
  return matching.some((protection) => admits(protection.accessLevels[options.action], options.actor));
}

/** Whether a protected tag names `tag`. */
export function isProtectedTag(tag: string, protections: readonly TagProtection[]): boolean {
  return protections.some((protection) => matchesProtectedName(protection.name, tag));
}

/** What the pre-receive hook is told about a push: the rules, the pusher and the default branch. */
export interface PushPolicy {
  protections: BranchProtection[];
  tagProtections: TagProtection[];
  pusher: Actor;
  defaultBranch: string;
}

const BRANCH_PREFIX = 'refs/heads/';
const TAG_PREFIX = 'refs/tags/';

/**
 * Why GitLab refuses an update of a protected tag: never moved; deleted only by maintainers, and
 * only through the API; created (or deleted) only by those its create levels admit.
 */
function refusalOfTagUpdate(options: { tag: string; deletion: boolean; creation: boolean; policy: PushPolicy; api: boolean }) {
  const { policy } = options;
  const matching = policy.tagProtections.filter((protection) => matchesProtectedName(protection.name, options.tag));
  if (matching.length === 0) return undefined;
  if (!options.creation && !options.deletion) return PUSH_REFUSALS.updateProtectedTag;
  if (options.deletion) {
    const maintainer = policy.pusher.isAdmin || policy.pusher.accessLevel >= ACCESS_LEVEL.MAINTAINER;
    if (!maintainer) return PUSH_REFUSALS.nonMaintainerDeleteProtectedTag;
    if (!options.api) return PUSH_REFUSALS.nonWebDeleteProtectedTag;
  }
  if (!matching.some((protection) => admits(protection.createAccessLevels, policy.pusher))) return PUSH_REFUSALS.createProtectedTag;
  return undefined;
}

/**
 * Why GitLab refuses one ref update of a push, or undefined. `isForced` (the old head is not an
 * ancestor of the new one) is asked only when it matters, as it needs git. Through the API
 * (`via: 'api'`), those who may merge into a protected branch may create it, and maintainers may
 * delete it, as GitLab's web interface and API allow; a git push may do neither.
 */
export async function refusalOfUpdate(options: {
  update: { ref: string; before: string; after: string };
  policy: PushPolicy;
  isForced: () => Promise<boolean>;
  via?: 'push' | 'api';
}): Promise<string | undefined> {
  const api = options.via === 'api';
  const { update, policy } = options;
  const deletion = update.after === ZERO_SHA;
  const creation = update.before === ZERO_SHA;
  if (update.ref.startsWith(TAG_PREFIX)) {
    return refusalOfTagUpdate({ tag: update.ref.slice(TAG_PREFIX.length), deletion, creation, policy, api });
  }
  if (!update.ref.startsWith(BRANCH_PREFIX)) return undefined;
  const branch = update.ref.slice(BRANCH_PREFIX.length);
  if (deletion && branch === policy.defaultBranch) return PUSH_REFUSALS.deleteDefaultBranch;
  const matching = protectionsOf(branch, policy.protections);
  if (matching.length === 0) return undefined;
  const may = (action: ProtectedAction) => matching.some((protection) => admits(protection.accessLevels[action], policy.pusher));
  if (!creation && !deletion && !matching.some((protection) => protection.allowForcePush) && (await options.isForced())) {
    return PUSH_REFUSALS.forcePushProtectedBranch;
  }
  if (deletion) {
    const maintainer = policy.pusher.isAdmin || policy.pusher.accessLevel >= ACCESS_LEVEL.MAINTAINER;
    if (!maintainer) return PUSH_REFUSALS.nonMaintainerDeleteProtectedBranch;
    return api ? undefined : PUSH_REFUSALS.nonWebDeleteProtectedBranch;
  }
  if (may('push')) return undefined;
  if (!creation) return PUSH_REFUSALS.pushProtectedBranch;
  if (!may('merge')) return PUSH_REFUSALS.createProtectedBranch;
  return api ? undefined : PUSH_REFUSALS.nonWebCreateProtectedBranch;
}

/** The environment variable that carries the push policy (JSON) from the service to its pre-receive hook. */
export const PUSH_POLICY_VARIABLE = 'REVIEW_PUSH_POLICY';

/** What a branch's view says of its protection: whether any protects it, what developers may, and whether the actor may push. */
export function protectionStatus(options: { branch: string; protections: readonly BranchProtection[]; actor: Actor }) {
  const matching = protectionsOf(options.branch, options.protections);
  const developers: Actor = { accessLevel: ACCESS_LEVEL.DEVELOPER, isAdmin: false };
  const developersMay = (action: ProtectedAction) => matching.some((protection) => admits(protection.accessLevels[action], developers));
  return {
    protected: matching.length > 0,
    developersCanPush: developersMay('push'),
    developersCanMerge: developersMay('merge'),
    canPush: mayOnBranch({ action: 'push', branch: options.branch, protections: options.protections, actor: options.actor }),
  };
}
