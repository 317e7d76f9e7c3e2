import type { UserSummary } from '../core/user-directory.ts';
import type { AwardEmoji } from './award-emoji.entity.ts';

/** An award as GitLab's award emoji API shows it. */
export function awardEmojiView(award: AwardEmoji, users: Map<number, UserSummary>) {
  return {
    id: award.id,
    name: award.name,
    user: users.get(award.userId) ?? null,
    created_at: award.createdAt.toISOString(),
    updated_at: award.updatedAt.toISOString(),
    awardable_id: award.awardableId,
    awardable_type: award.awardableType,
    url: null,
  };
}
