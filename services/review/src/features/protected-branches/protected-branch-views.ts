import { ACCESS_LEVEL_DESCRIPTIONS, type BranchProtection, type ProtectedAction } from './branch-protection.ts';

/** The names of the users and groups access entries admit: their entries are described by them, as GitLab does. */
export interface EntryNames {
  users: Map<number, string>;
  groups: Map<number, string>;
}

const NO_NAMES: EntryNames = { users: new Map(), groups: new Map() };

/** Every user and group a protected branch's entries name. */
export function entityIdsOf(protections: readonly BranchProtection[]): { userIds: number[]; groupIds: number[] } {
  const entries = protections.flatMap((protection) => Object.values(protection.accessLevels).flat());
  return {
    userIds: [...new Set(entries.flatMap((entry) => (entry.userId ? [entry.userId] : [])))],
    groupIds: [...new Set(entries.flatMap((entry) => (entry.groupId ? [entry.groupId] : [])))],
  };
}

function accessLevelsView(protection: BranchProtection, action: ProtectedAction, names: EntryNames) {
  return protection.accessLevels[action].map((level) => {
    let description = ACCESS_LEVEL_DESCRIPTIONS[level.accessLevel] ?? String(level.accessLevel);
    if (level.userId) description = names.users.get(level.userId) ?? 'User';
    if (level.groupId) description = names.groups.get(level.groupId) ?? 'Group';
    return {
      id: level.id,
      access_level: level.accessLevel,
      access_level_description: description,
      ...(action === 'push' ? { deploy_key_id: null } : {}),
      user_id: level.userId ?? null,
      group_id: level.groupId ?? null,
    };
  });
}

/** GitLab's protected branch (`API::Entities::ProtectedBranch`). */
export function protectedBranchView(protection: BranchProtection, names: EntryNames = NO_NAMES) {
  return {
    id: protection.id,
    name: protection.name,
    push_access_levels: accessLevelsView(protection, 'push', names),
    merge_access_levels: accessLevelsView(protection, 'merge', names),
    unprotect_access_levels: accessLevelsView(protection, 'unprotect', names),
    allow_force_push: protection.allowForcePush,
    code_owner_approval_required: protection.codeOwnerApprovalRequired,
    inherited: false,
  };
}
