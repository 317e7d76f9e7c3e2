import { ACCESS_LEVEL_DESCRIPTIONS, type BranchProtection, type ProtectedAction } from './branch-protection.ts';

function accessLevelsView(protection: BranchProtection, action: ProtectedAction) {
  return protection.accessLevels[action].map((level) => ({
    id: level.id,
    access_level: level.accessLevel,
    access_level_description: ACCESS_LEVEL_DESCRIPTIONS[level.accessLevel] ?? String(level.accessLevel),
    ...(action === 'push' ? { deploy_key_id: null } : {}),
    user_id: null,
    group_id: null,
  }));
}

/** GitLab's protected branch (`API::Entities::ProtectedBranch`). */
export function protectedBranchView(protection: BranchProtection) {
  return {
    id: protection.id,
    name: protection.name,
    push_access_levels: accessLevelsView(protection, 'push'),
    merge_access_levels: accessLevelsView(protection, 'merge'),
    unprotect_access_levels: accessLevelsView(protection, 'unprotect'),
    allow_force_push: protection.allowForcePush,
    code_owner_approval_required: protection.codeOwnerApprovalRequired,
    inherited: false,
  };
}
