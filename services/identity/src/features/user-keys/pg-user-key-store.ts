import {
  UniqueConstraintViolationException,
  type EntityName,
  type FilterQuery,
  type QueryOrderMap,
  type RequiredEntityData,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FieldValidationError } from '@platform/errors';
import { findPage, type Page, type PageWindow } from '@platform/db';

/** Keys a user registers (SSH, GPG): listed, found and removed per user. */
export interface UserKeyStore<Key, NewKey> {
  listByUser(userId: number, page: PageWindow): Promise<Page<Key>>;
  findForUser(userId: number, keyId: number): Promise<Key | null>;
  /** A key whose fingerprint anybody already uses fails with `fingerprint has already been taken`. */
  insert(key: NewKey): Promise<Key>;
  remove(key: Key): Promise<void>;
}

/** Unique by fingerprint across all users, which GitLab reports as `fingerprint has already been taken`. */
export class PgUserKeyStore<Key extends { id: number; userId: number }, NewKey extends RequiredEntityData<Key>>
  implements UserKeyStore<Key, NewKey>
{
  readonly #em: EntityManager;
  readonly #entity: EntityName<Key>;

  constructor(em: EntityManager, entity: EntityName<Key>) {
    this.#em = em;
    this.#entity = entity;
  }

  async listByUser(userId: number, page: PageWindow): Promise<Page<Key>> {
    return findPage(this.#em, this.#entity, { userId } as FilterQuery<Key>, {
      orderBy: { id: 'asc' } as QueryOrderMap<Key>,
      window: page,
    });
  }

  findForUser(userId: number, keyId: number): Promise<Key | null> {
    return this.#em.findOne(this.#entity, { id: keyId, userId } as FilterQuery<Key>);
  }

  async insert(key: NewKey): Promise<Key> {
    const entity = this.#em.create(this.#entity, key as RequiredEntityData<Key>);
    try {
      await this.#em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw new FieldValidationError({ fingerprint: ['has already been taken'] });
      }
      throw error;
    }
    return entity;
  }

  async remove(key: Key): Promise<void> {
    this.#em.remove(key);
    await this.#em.flush();
  }
}
