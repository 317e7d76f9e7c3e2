import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError, RefusedError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import type { User } from '../users/user.entity.ts';
import type { SshKey } from './ssh-key.entity.ts';
import { parseSshKey } from './ssh-key-parsing.ts';
import { keyRestrictionProblem } from './ssh-key-restrictions.ts';
import type { SshKeyFingerprint, SshKeyStore } from './ssh-keys-store.ts';
import type { AddSshKeyParams } from './ssh-keys.schemas.ts';
import { sshKeyAddedEvent, sshKeyRemovedEvent } from './ssh-keys.events.ts';

const MAXIMUM_TITLE_LENGTH = 255;

/** Users' SSH keys. Routes resolve the owner and check who may act on them. */
export class SshKeysService {
  readonly #em: EntityManager;
  readonly #keys: SshKeyStore;
  readonly #settings: ApplicationSettingsSource;

  constructor(options: { em: EntityManager; keys: SshKeyStore; settings: ApplicationSettingsSource }) {
    this.#em = options.em;
    this.#keys = options.keys;
    this.#settings = options.settings;
  }

  list(owner: User, page: { offset: number; limit: number }) {
    return this.#keys.listByUser(owner.id, page);
  }

  /** Another user's key is as unknown as a missing one. */
  async get(owner: User, keyId: number): Promise<SshKey> {
    const key = await this.#keys.findForUser(owner.id, keyId);
    if (!key) throw new NotFoundError('Key');
    return key;
  }

  /** Any user's key by id (administrators'); an unknown id answers as GitLab's missing record does. */
  async find(keyId: number): Promise<SshKey> {
    const key = await this.#keys.findById(keyId);
    if (!key) throw new NotFoundError();
    return key;
  }

  /**
   * Any user's key by fingerprint, as GitLab's `KeysFinder` reads it: `SHA256:` (or `sha256:`) and
   * the base64 of 32 bytes, otherwise MD5's colon-separated hex; anything else is a 400.
   */
  async findByFingerprint(fingerprint: string): Promise<SshKey> {
    const key = await this.#keys.findByFingerprint(parseFingerprint(fingerprint));
    if (!key) throw new NotFoundError('Key');
    return key;
  }

  /** Adds a key after GitLab's checks; a key anybody already uses is refused by fingerprint. */
  async add(actor: AuthenticatedCaller, owner: User, input: AddSshKeyParams): Promise<SshKey> {
    const problems: Record<string, string[]> = {};
    if (!input.title.trim()) problems.title = ["can't be blank"];
    if (input.title.length > MAXIMUM_TITLE_LENGTH) problems.title = [`is too long (maximum is ${MAXIMUM_TITLE_LENGTH} characters)`];
    const parsed = await parseSshKey(input.key);
    if (!parsed.ok) problems.key = parsed.problems;
    const restricted =
      parsed.ok && parsed.key.type && keyRestrictionProblem(this.#settings.current(), { type: parsed.key.type, bits: parsed.key.bits });
    if (restricted) (problems.key ??= []).push(restricted);
    if (input.expires_at && input.expires_at.getTime() <= Date.now()) (problems.key ??= []).push('has expired');
    if (!parsed.ok || Object.keys(problems).length > 0) throw new FieldValidationError(problems);
    return this.#em.transactional(async (em) => {
      const key = await this.#keys.insert({
        userId: owner.id,
        title: input.title,
        key: parsed.key.line,
        fingerprintMd5: parsed.key.fingerprintMd5,
        fingerprintSha256: parsed.key.fingerprintSha256,
        usageType: input.usage_type ?? 'auth_and_signing',
        expiresAt: input.expires_at ?? null,
      });
      recordEvent(em, { ...sshKeyAddedEvent(owner, key), actor: actorOf(actor) });
      return key;
    });
  }

  async remove(actor: AuthenticatedCaller, owner: User, keyId: number): Promise<void> {
    await this.#em.transactional(async (em) => {
      const key = await this.get(owner, keyId);
      recordEvent(em, { ...sshKeyRemovedEvent(owner, key), actor: actorOf(actor) });
      await this.#keys.remove(key);
    });
  }
}

const MD5_FINGERPRINT = /^(?:[0-9a-f]{2}:){15}[0-9a-f]{2}/i;

function parseFingerprint(fingerprint: string): SshKeyFingerprint {
  if (/^(?:sha256|SHA256):/.test(fingerprint)) {
    const sha256 = fingerprint.replace(/sha256:|SHA256:/g, '');
    if (Buffer.from(sha256, 'base64').length !== 32) throw new RefusedError('Failed to return the key');
    // Stored as OpenSSH prints it, without base64's padding.
    return { sha256: sha256.replace(/=+$/, '') };
  }
  if (!MD5_FINGERPRINT.test(fingerprint)) throw new RefusedError('Failed to return the key');
  return { md5: fingerprint };
}
