import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FieldValidationError } from '@platform/errors';
import { GpgKey } from './gpg-key.entity.ts';

export type NewGpgKey = Pick<GpgKey, 'userId' | 'key' | 'primaryKeyid' | 'fingerprint'>;

export interface GpgKeyStore {
  listByUser(userId: number, page: { offset: number; limit: number }): Promise<{ items: GpgKey[]; total: number }>;
  findForUser(userId: number, keyId: number): Promise<GpgKey | null>;
  /** A key anybody already added fails with `fingerprint has already been taken`. */
  insert(key: NewGpgKey): Promise<GpgKey>;
  remove(key: GpgKey): Promise<void>;
}

export class PgGpgKeyStore implements GpgKeyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async listByUser(userId: number, page: { offset: number; limit: number }) {
    const [items, total] = await this.#em.findAndCount(
      GpgKey,
      { userId },
      { orderBy: { id: 'asc' }, limit: page.limit, offset: page.offset },
    );
    return { items, total };
  }

  findForUser(userId: number, keyId: number): Promise<GpgKey | null> {
    return this.#em.findOne(GpgKey, { id: keyId, userId });
  }

  async insert(key: NewGpgKey): Promise<GpgKey> {
    const entity = this.#em.create(GpgKey, key);
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

  async remove(key: GpgKey): Promise<void> {
    this.#em.remove(key);
    await this.#em.flush();
  }
}
