import type { EntityManager } from '@mikro-orm/postgresql';
import { PgUserKeyStore, type UserKeyStore } from '../user-keys/pg-user-key-store.ts';
import { SshKey } from './ssh-key.entity.ts';

export type NewSshKey = Pick<SshKey, 'userId' | 'title' | 'key' | 'fingerprintMd5' | 'fingerprintSha256' | 'usageType' | 'expiresAt'>;

/** Which of a key's fingerprints a lookup compares: MD5 (colon-separated hex) or SHA256 (unpadded base64). */
export type SshKeyFingerprint = { md5: string } | { sha256: string };

export interface SshKeyStore extends UserKeyStore<SshKey, NewSshKey> {
  /** Any user's key, for administrators' `GET /keys/:id`. */
  findById(id: number): Promise<SshKey | null>;
  findByFingerprint(fingerprint: SshKeyFingerprint): Promise<SshKey | null>;
}

export class PgSshKeyStore extends PgUserKeyStore<SshKey, NewSshKey> implements SshKeyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    super(em, SshKey);
    this.#em = em;
  }

  findById(id: number): Promise<SshKey | null> {
    return this.#em.findOne(SshKey, { id });
  }

  findByFingerprint(fingerprint: SshKeyFingerprint): Promise<SshKey | null> {
    return this.#em.findOne(SshKey, 'md5' in fingerprint ? { fingerprintMd5: fingerprint.md5 } : { fingerprintSha256: fingerprint.sha256 });
  }
}
