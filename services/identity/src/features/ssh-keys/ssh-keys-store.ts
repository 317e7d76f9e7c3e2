import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FieldValidationError } from '@platform/errors';
import { SshKey } from './ssh-key.entity.ts';

export type NewSshKey = Pick<SshKey, 'userId' | 'title' | 'key' | 'fingerprintMd5' | 'fingerprintSha256' | 'usageType' | 'expiresAt'>;

export interface SshKeyStore {
  listByUser(userId: number, page: { offset: number; limit: number }): Promise<{ items: SshKey[]; total: number }>;
  findForUser(userId: number, keyId: number): Promise<SshKey | null>;
  /** A key whose fingerprint anybody already uses fails with `fingerprint has already been taken`. */
  insert(key: NewSshKey): Promise<SshKey>;
  remove(key: SshKey): Promise<void>;
}

export class PgSshKeyStore implements SshKeyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async listByUser(userId: number, page: { offset: number; limit: number }) {
    const [items, total] = await this.#em.findAndCount(
      SshKey,
      { userId },
      { orderBy: { id: 'asc' }, limit: page.limit, offset: page.offset },
    );
    return { items, total };
  }

  findForUser(userId: number, keyId: number): Promise<SshKey | null> {
    return this.#em.findOne(SshKey, { id: keyId, userId });
  }

  async insert(key: NewSshKey): Promise<SshKey> {
    const entity = this.#em.create(SshKey, key);
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

  async remove(key: SshKey): Promise<void> {
    this.#em.remove(key);
    await this.#em.flush();
  }
}
