import type { EntityManager } from '@mikro-orm/postgresql';
import { PgUserKeyStore, type UserKeyStore } from '../user-keys/pg-user-key-store.ts';
import { GpgKey } from './gpg-key.entity.ts';

export type NewGpgKey = Pick<GpgKey, 'userId' | 'key' | 'primaryKeyid' | 'fingerprint'>;

export type GpgKeyStore = UserKeyStore<GpgKey, NewGpgKey>;

export class PgGpgKeyStore extends PgUserKeyStore<GpgKey, NewGpgKey> {
  constructor(em: EntityManager) {
    super(em, GpgKey);
  }
}
