import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page, PageWindow } from '@platform/db';
import { PgUserKeyStore } from '../user-keys/pg-user-key-store.ts';
import { GpgKey } from './gpg-key.entity.ts';

export type NewGpgKey = Pick<GpgKey, 'userId' | 'key' | 'primaryKeyid' | 'fingerprint'>;

export interface GpgKeyStore {
  listByUser(userId: number, page: PageWindow): Promise<Page<GpgKey>>;
  findForUser(userId: number, keyId: number): Promise<GpgKey | null>;
  /** A key anybody already added fails with `fingerprint has already been taken`. */
  insert(key: NewGpgKey): Promise<GpgKey>;
  remove(key: GpgKey): Promise<void>;
}

export class PgGpgKeyStore extends PgUserKeyStore<GpgKey, NewGpgKey> implements GpgKeyStore {
  constructor(em: EntityManager) {
    super(em, GpgKey);
  }
}
