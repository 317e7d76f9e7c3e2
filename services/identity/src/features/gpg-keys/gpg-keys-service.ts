import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import type { User } from '../users/user.entity.ts';
import type { GpgKey } from './gpg-key.entity.ts';
import { parseGpgKey } from './gpg-key-parsing.ts';
import type { GpgKeyStore } from './gpg-keys-store.ts';
import { gpgKeyAddedEvent, gpgKeyRemovedEvent } from './gpg-keys.events.ts';

/** Users' GPG keys, for commit signatures. Routes resolve the owner and check who may act. */
export class GpgKeysService {
  readonly #em: EntityManager;
  readonly #keys: GpgKeyStore;

  constructor(options: { em: EntityManager; keys: GpgKeyStore }) {
    this.#em = options.em;
    this.#keys = options.keys;
  }

  list(owner: User, page: { offset: number; limit: number }) {
    return this.#keys.listByUser(owner.id, page);
  }

  /** Another user's key is as unknown as a missing one. */
  async get(owner: User, keyId: number): Promise<GpgKey> {
    const key = await this.#keys.findForUser(owner.id, keyId);
    if (!key) throw new NotFoundError('GPG Key');
    return key;
  }

  async add(actor: AuthenticatedCaller, owner: User, input: { key: string }): Promise<GpgKey> {
    const parsed = await parseGpgKey(input.key);
    if (!parsed.ok) throw new FieldValidationError({ key: parsed.problems });
    return this.#em.transactional(async (em) => {
      const key = await this.#keys.insert({
        userId: owner.id,
        key: parsed.key.armored,
        primaryKeyid: parsed.key.primaryKeyid,
        fingerprint: parsed.key.fingerprint,
      });
      recordEvent(em, { ...gpgKeyAddedEvent(owner, key), actor: actorOf(actor) });
      return key;
    });
  }

  async remove(actor: AuthenticatedCaller, owner: User, keyId: number): Promise<void> {
    await this.#em.transactional(async (em) => {
      const key = await this.get(owner, keyId);
      recordEvent(em, { ...gpgKeyRemovedEvent(owner, key), actor: actorOf(actor) });
      await this.#keys.remove(key);
    });
  }
}
