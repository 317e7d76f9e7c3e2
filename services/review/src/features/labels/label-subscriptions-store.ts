import { insertUnlessPresent, type EntityManager } from '@platform/db';
import { LabelSubscription } from './label-subscription.entity.ts';

/** Who follows which label; a label id names a project or a group label. */
export interface LabelSubscriptionStore {
  /** The labels among `labelIds` the user follows. */
  subscribedAmong(labelIds: number[], userId: number): Promise<Set<number>>;
  /** Follows the label; false when the user already did. */
  subscribe(labelId: number, userId: number): Promise<boolean>;
  /** Stops following the label; false when the user did not. */
  unsubscribe(labelId: number, userId: number): Promise<boolean>;
  /** Forgets the label's followers (it is deleted). */
  forget(labelId: number): Promise<void>;
  /** Makes the followers of one label followers of another (the first was promoted to it). */
  move(fromLabelId: number, toLabelId: number): Promise<void>;
}

export class PgLabelSubscriptionStore implements LabelSubscriptionStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async subscribedAmong(labelIds: number[], userId: number): Promise<Set<number>> {
    if (labelIds.length === 0) return new Set();
    const rows = await this.#em.find(LabelSubscription, { labelId: { $in: [...new Set(labelIds)] }, userId });
    return new Set(rows.map((row) => row.labelId));
  }

  async subscribe(labelId: number, userId: number): Promise<boolean> {
    return (await insertUnlessPresent(this.#em, LabelSubscription, { labelId, userId, createdAt: new Date() })) !== null;
  }

  async unsubscribe(labelId: number, userId: number): Promise<boolean> {
    return (await this.#em.nativeDelete(LabelSubscription, { labelId, userId })) > 0;
  }

  async forget(labelId: number): Promise<void> {
    await this.#em.nativeDelete(LabelSubscription, { labelId });
  }

  async move(fromLabelId: number, toLabelId: number): Promise<void> {
    await this.#em.execute(
      'insert into label_subscriptions (label_id, user_id, created_at) select ?, user_id, created_at from label_subscriptions where label_id = ? on conflict do nothing',
      [toLabelId, fromLabelId],
    );
    await this.forget(fromLabelId);
  }
}
