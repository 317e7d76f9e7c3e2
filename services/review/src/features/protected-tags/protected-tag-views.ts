import { ACCESS_LEVEL_DESCRIPTIONS, type TagProtection } from '../protected-branches/branch-protection.ts';

/** GitLab's protected tag (`API::Entities::ProtectedTag`): roles only, as GitLab's free tier keeps them. */
export function protectedTagView(protection: TagProtection) {
  return {
    name: protection.name,
    create_access_levels: protection.createAccessLevels.map((level) => ({
      id: level.id,
      access_level: level.accessLevel,
      access_level_description: ACCESS_LEVEL_DESCRIPTIONS[level.accessLevel] ?? String(level.accessLevel),
      deploy_key_id: null,
      user_id: null,
      group_id: null,
    })),
  };
}
