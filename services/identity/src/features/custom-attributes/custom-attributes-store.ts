import type { EntityManager } from '@mikro-orm/postgresql';
import { CustomAttribute } from './custom-attribute.entity.ts';

export interface CustomAttributeStore {
  /** Each user's attributes, ordered by key; users without any map to an empty list. */
  listFor(userIds: number[]): Promise<Map<number, CustomAttribute[]>>;
  find(userId: number, key: string): Promise<CustomAttribute | null>;
  /** Sets the value of `key`, creating the attribute when it is new. */
  upsert(userId: number, attribute: { key: string; value: string }): Promise<CustomAttribute>;
  /** False when the user had no such attribute. */
  remove(userId: number, key: string): Promise<boolean>;
}

export class PgCustomAttributeStore implements CustomAttributeStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async listFor(userIds: number[]): Promise<Map<number, CustomAttribute[]>> {
    const byUser = new Map<number, CustomAttribute[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return byUser;
    const rows = await this.#em.find(CustomAttribute, { userId: { $in: userIds } }, { orderBy: { key: 'asc' } });
    for (const row of rows) byUser.get(row.userId)?.push(row);
    return byUser;
  }

  find(userId: number, key: string): Promise<CustomAttribute | null> {
    return this.#em.findOne(CustomAttribute, { userId, key });
  }

  async upsert(userId: number, attribute: { key: string; value: string }): Promise<CustomAttribute> {
    // One statement, so two concurrent writers of the same key cannot both insert.
    await this.#em.execute(
      `insert into user_custom_attributes (user_id, key, value) values (?, ?, ?)
       on conflict (user_id, key) do update set value = excluded.value, updated_at = now()`,
      [userId, attribute.key, attribute.value],
    );
    const stored = await this.#em.findOneOrFail(CustomAttribute, { userId, key: attribute.key }, { refresh: true });
    return stored;
  }

  async remove(userId: number, key: string): Promise<boolean> {
    return (await this.#em.nativeDelete(CustomAttribute, { userId, key })) > 0;
  }
}
