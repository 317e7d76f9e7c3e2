import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import type { SubscriptionStore } from './subscriptions-store.ts';

/**
 * Who follows a merge request: the author and assignees are subscribed until they unsubscribe;
 * anybody who may read it subscribes or unsubscribes explicitly.
 */
export class SubscriptionsService {
  readonly #store: SubscriptionStore;

  constructor(options: { store: SubscriptionStore }) {
    this.#store = options.store;
  }

  /** Whether `userId` is subscribed to each merge request, by id. */
  async subscribed(mergeRequests: MergeRequest[], userId: number): Promise<Map<number, boolean>> {
    const choices = await this.#store.choices(
      mergeRequests.map((mergeRequest) => mergeRequest.id),
      userId,
    );
    return new Map(
      mergeRequests.map((mergeRequest) => [
        mergeRequest.id,
        choices.get(mergeRequest.id) ?? (mergeRequest.authorId === userId || mergeRequest.assigneeIds.includes(userId)),
      ]),
    );
  }

  /** Subscribes or unsubscribes; false when the user already was in that state (GitLab's 304). */
  async choose(mergeRequest: MergeRequest, userId: number, subscribed: boolean): Promise<boolean> {
    const current = (await this.subscribed([mergeRequest], userId)).get(mergeRequest.id);
    if (current === subscribed) return false;
    await this.#store.choose({ mergeRequestId: mergeRequest.id, userId, subscribed });
    return true;
  }
}
