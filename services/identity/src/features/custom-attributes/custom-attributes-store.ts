import type { EntityManager } from '@mikro-orm/postgresql';
import {
  customAttributeEntities,
  customAttributeTable,
  type CustomAttribute,
  type CustomAttributeOwnerKind,
} from './custom-attribute.entity.ts';

/** The custom attributes of one kind of owner (users, groups or projects). */
export interface CustomAttributeStore {
  /** Each owner's attributes, ordered by key; owners without any map to an empty list. */
  listFor(ownerIds: number[]): Promise<Map<number, CustomAttribute[]>>;
  find(ownerId: number, key: string): Promise<CustomAttribute | null>;
  /** Sets the value of `key`, creating the attribute when it is new. */
  upsert(ownerId: number, attribute: { key: string; value: string }): Promise<CustomAttribute>;
  /** False when the owner had no such attribute. */
  remove(ownerId: number, key: string): Promise<boolean>;
}

export class PgCustomAttributeStore implements CustomAttributeStore {
  readonly #em: EntityManager;
  readonly #entity: (typeof customAttributeEntities)[CustomAttributeOwnerKind];
  readonly #table: { tableName: string; ownerColumn: string };

  constructor(em: EntityManager, owner: CustomAttributeOwnerKind) {
    this.#em = em;
    this.#entity = customAttributeEntities[owner];
    this.#table = customAttributeTable(owner);
  }

  async listFor(ownerIds: number[]): Promise<Map<number, CustomAttribute[]>> {
    const byOwner = new Map<number, CustomAttribute[]>(ownerIds.map((id) => [id, []]));
    if (ownerIds.length === 0) return byOwner;
    const rows = await this.#em.find(this.#entity, { ownerId: { $in: ownerIds } }, { orderBy: { key: 'asc' } });
    for (const row of rows) byOwner.get(row.ownerId)?.push(row);
    return byOwner;
  }

  find(ownerId: number, key: string): Promise<CustomAttribute | null> {
    return this.#em.findOne(this.#entity, { ownerId, key });
  }

  async upsert(ownerId: number, attribute: { key: string; value: string }): Promise<CustomAttribute> {
    const { tableName, ownerColumn } = this.#table;
    // One statement, so two concurrent writers of the same key cannot both insert.
    await this.#em.execute(
      `insert into ${tableName} (${ownerColumn}, key, value) values (?, ?, ?)
       on conflict (${ownerColumn}, key) do update set value = excluded.value, updated_at = now()`,
      [ownerId, attribute.key, attribute.value],
    );
    return this.#em.findOneOrFail(this.#entity, { ownerId, key: attribute.key }, { refresh: true });
  }

  async remove(ownerId: number, key: string): Promise<boolean> {
    return (await this.#em.nativeDelete(this.#entity, { ownerId, key })) > 0;
  }
}
