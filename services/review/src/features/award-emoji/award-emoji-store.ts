import { insertUnlessPresent, type EntityManager } from '@platform/db';
import { AwardEmoji } from './award-emoji.entity.ts';

export interface AwardEmojiStore {
  list(awardableId: number, window: { offset: number; limit: number }): Promise<{ items: AwardEmoji[]; total: number }>;
  find(awardableId: number, awardId: number): Promise<AwardEmoji | null>;
  /** Null when the user already gave this emoji. */
  create(award: Omit<AwardEmoji, 'id'>): Promise<AwardEmoji | null>;
  delete(awardId: number): Promise<void>;
  /** Awards of `names` per merge request id and name. */
  counts(awardableIds: number[], names: string[]): Promise<Array<{ awardableId: number; name: string; count: number }>>;
  /** The merge requests `userId` gave `name` (any emoji when undefined). */
  awardedBy(userId: number, name: string | undefined): Promise<number[]>;
}

export class PgAwardEmojiStore implements AwardEmojiStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async list(awardableId: number, window: { offset: number; limit: number }) {
    const [items, total] = await this.#em.findAndCount(
      AwardEmoji,
      { awardableId },
      { orderBy: { id: 'asc' }, offset: window.offset, limit: window.limit },
    );
    return { items, total };
  }

  find(awardableId: number, awardId: number): Promise<AwardEmoji | null> {
    return this.#em.findOne(AwardEmoji, { id: awardId, awardableId });
  }

  create(award: Omit<AwardEmoji, 'id'>): Promise<AwardEmoji | null> {
    return insertUnlessPresent(this.#em, AwardEmoji, award as AwardEmoji);
  }

  async delete(awardId: number): Promise<void> {
    await this.#em.nativeDelete(AwardEmoji, { id: awardId });
  }

  async counts(awardableIds: number[], names: string[]) {
    if (awardableIds.length === 0) return [];
    const rows = await this.#em.execute<Array<{ awardable_id: string; name: string; count: string }>>(
      `select awardable_id, name, count(*) as count from award_emoji
        where awardable_type = 'MergeRequest' and awardable_id = any(?::bigint[]) and name = any(?::text[])
        group by awardable_id, name`,
      [`{${awardableIds.join(',')}}`, `{${names.join(',')}}`],
    );
    return rows.map((row) => ({ awardableId: Number(row.awardable_id), name: row.name, count: Number(row.count) }));
  }

  async awardedBy(userId: number, name: string | undefined): Promise<number[]> {
    // Ids only: no partly loaded award joins the unit of work.
    const rows = await this.#em.execute<Array<{ awardable_id: string }>>(
      `select distinct awardable_id from award_emoji where user_id = ? and awardable_type = 'MergeRequest'${name === undefined ? '' : ' and name = ?'}`,
      name === undefined ? [userId] : [userId, name],
    );
    return rows.map((row) => Number(row.awardable_id));
  }
}
