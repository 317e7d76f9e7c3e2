import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page, PageWindow } from '@platform/db';
import { PgUserKeyStore } from '../user-keys/pg-user-key-store.ts';
import { SshKey } from './ssh-key.entity.ts';

export type NewSshKey = Pick<SshKey, 'userId' | 'title' | 'key' | 'fingerprintMd5' | 'fingerprintSha256' | 'usageType' | 'expiresAt'>;

export interface SshKeyStore {
  listByUser(userId: number, page: PageWindow): Promise<Page<SshKey>>;
  findForUser(userId: number, keyId: number): Promise<SshKey | null>;
  /** A key whose fingerprint anybody already uses fails with `fingerprint has already been taken`. */
  insert(key: NewSshKey): Promise<SshKey>;
  remove(key: SshKey): Promise<void>;
}

export class PgSshKeyStore extends PgUserKeyStore<SshKey, NewSshKey> implements SshKeyStore {
  constructor(em: EntityManager) {
    super(em, SshKey);
  }
}
