import type { EntityManager } from '@mikro-orm/postgresql';
import { PgUserKeyStore, type UserKeyStore } from '../user-keys/pg-user-key-store.ts';
import { SshKey } from './ssh-key.entity.ts';

export type NewSshKey = Pick<SshKey, 'userId' | 'title' | 'key' | 'fingerprintMd5' | 'fingerprintSha256' | 'usageType' | 'expiresAt'>;

export type SshKeyStore = UserKeyStore<SshKey, NewSshKey>;

export class PgSshKeyStore extends PgUserKeyStore<SshKey, NewSshKey> {
  constructor(em: EntityManager) {
    super(em, SshKey);
  }
}
