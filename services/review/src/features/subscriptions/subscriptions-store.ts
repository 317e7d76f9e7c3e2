import type { EntityManager } from '@platform/db';
import { Subscription } from './subscription.entity.ts';

export interface SubscriptionStore {
  /** The user's explicit choices, by merge request id. */
  choices(mergeRequestIds: number[], userId: number): Promise<Map<number, boolean>>;
  /** Records the choice, replacing an earlier one. */
  choose(options: { mergeRequestId: number; userId: number; subscribed: boolean }): Promise<void>;
}

export class PgSubscriptionStore implements SubscriptionStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async choices(mergeRequestIds: number[], userId: number): Promise<Map<number, boolean>> {
    if (mergeRequestIds.length === 0) return new Map();
    const rows = await this.#em.find(Subscription, { mergeRequestId: { $in: mergeRequestIds }, userId });
    return new Map(rows.map((row) => [row.mergeRequestId, row.subscribed]));
  }

  async choose(options: { mergeRequestId: number; userId: number; subscribed: boolean }): Promise<void> {
    await this.#em.execute(
      'insert into subscriptions (merge_request_id, user_id, subscribed, updated_at) values (?, ?, ?, now()) on conflict (merge_request_id, user_id) do update set subscribed = excluded.subscribed, updated_at = excluded.updated_at',
      [options.mergeRequestId, options.userId, options.subscribed],
    );
  }
}
