import type { AuthenticatedCaller } from '@platform/auth';
import { NotFoundError, UnauthorizedError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import { isMember } from '../merge-requests/merge-request-lookup.ts';
import type { AwardEmoji } from './award-emoji.entity.ts';
import type { AwardEmojiStore } from './award-emoji-store.ts';
import { emojiName } from './emoji-names.ts';
import { DOWNVOTE, UPVOTE } from '../core/votes.ts';

/** GitLab's refusal of an award: not found, naming what the award failed on (`404 Award Emoji Name has already been taken Not Found`). */
function notAwarded(reason?: string): NotFoundError {
  return new NotFoundError(reason ? `Award Emoji ${reason}` : 'Award Emoji');
}

/**
 * Emoji reactions to merge requests: whoever may read one reacts to it (a locked discussion is
 * closed to non-members), once per emoji; only the reacting user or an administrator takes one back.
 * Thumbs up and down are the merge request's votes.
 */
export class AwardEmojiService {
  readonly #store: AwardEmojiStore;

  constructor(options: { store: AwardEmojiStore }) {
    this.#store = options.store;
  }

  list(mergeRequest: MergeRequest, window: { offset: number; limit: number }) {
    return this.#store.list(mergeRequest.id, window);
  }

  async get(mergeRequest: MergeRequest, awardId: number): Promise<AwardEmoji> {
    const found = await this.#store.find(mergeRequest.id, awardId);
    if (!found) throw new NotFoundError('Award Emoji');
    return found;
  }

  async award(options: { project: ProjectAccess; mergeRequest: MergeRequest; caller: AuthenticatedCaller; name: string }) {
    const { project, mergeRequest, caller } = options;
    if (mergeRequest.discussionLocked && !isMember(project)) throw notAwarded();
    const name = await emojiName(options.name);
    if (name === undefined) throw notAwarded('Name is not a valid emoji name');
    const now = new Date();
    const created = await this.#store.create({
      name,
      userId: caller.userId,
      awardableType: 'MergeRequest',
      awardableId: mergeRequest.id,
      createdAt: now,
      updatedAt: now,
    });
    if (!created) throw notAwarded('Name has already been taken');
    return created;
  }

  async remove(options: { project: ProjectAccess; mergeRequest: MergeRequest; caller: AuthenticatedCaller; awardId: number }) {
    const award = await this.get(options.mergeRequest, options.awardId);
    if (award.userId !== options.caller.userId && !options.project.isAdmin) throw new UnauthorizedError();
    await this.#store.delete(award.id);
  }

  /** Thumbs up and down per merge request id. */
  async votes(mergeRequests: MergeRequest[]): Promise<Map<number, { upvotes: number; downvotes: number }>> {
    const counts = await this.#store.counts(
      mergeRequests.map((mergeRequest) => mergeRequest.id),
      [UPVOTE, DOWNVOTE],
    );
    const votes = new Map<number, { upvotes: number; downvotes: number }>();
    for (const { awardableId, name, count } of counts) {
      const vote = votes.get(awardableId) ?? { upvotes: 0, downvotes: 0 };
      if (name === UPVOTE) vote.upvotes = count;
      else vote.downvotes = count;
      votes.set(awardableId, vote);
    }
    return votes;
  }

  /** The merge requests `userId` reacted to with `name`, or with anything. */
  async reactedTo(options: { userId: number; name?: string | undefined }): Promise<number[]> {
    const name = options.name === undefined ? undefined : ((await emojiName(options.name)) ?? options.name);
    return this.#store.awardedBy(options.userId, name);
  }
}
