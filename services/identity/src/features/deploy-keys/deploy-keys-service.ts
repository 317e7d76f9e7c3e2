import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthenticatedCaller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import { parseSshKey } from '../ssh-keys/ssh-key-parsing.ts';
import type { DeployKey } from './deploy-key.entity.ts';
import type { DeployKeyStore, EnabledDeployKey } from './deploy-keys-store.ts';

export interface NewDeployKeyInput {
  key: string;
  title: string;
  expiresAt?: Date | undefined;
}

/**
 * Deploy keys, as GitLab's: maintainers add keys to their projects, enable a key they can reach
 * (one of another project they maintain, or an instance key) on another project, choose whether
 * it may push there, and disable it; a key enabled nowhere that is not an instance key goes with
 * its last project. Administrators list every key and add instance keys.
 */
export class DeployKeysService {
  readonly #em: EntityManager;
  readonly #keys: DeployKeyStore;
  readonly #access: AccessPolicy;

  constructor(options: { em: EntityManager; keys: DeployKeyStore; access: AccessPolicy }) {
    this.#em = options.em;
    this.#keys = options.keys;
    this.#access = options.access;
  }

  listAll(publicOnly: boolean, window: PageWindow): Promise<Page<DeployKey>> {
    return this.#keys.list({ publicOnly }, window);
  }

  /** `POST /deploy_keys`: an instance key, enabled nowhere yet. */
  async createInstanceKey(caller: AuthenticatedCaller, input: NewDeployKeyInput): Promise<DeployKey> {
    return this.#em.transactional(() => this.#newKey(caller, input, true));
  }

  async #projectId(caller: AuthenticatedCaller, idOrPath: number | string): Promise<number> {
    const viewer = await this.#access.viewerOf(caller);
    return (await this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.MAINTAINER)).project.id;
  }

  async list(caller: AuthenticatedCaller, idOrPath: number | string, window: PageWindow): Promise<Page<EnabledDeployKey>> {
    return this.#keys.listOfProject(await this.#projectId(caller, idOrPath), window);
  }

  async get(caller: AuthenticatedCaller, idOrPath: number | string, keyId: number): Promise<EnabledDeployKey> {
    const enabled = await this.#keys.findEnabled(await this.#projectId(caller, idOrPath), keyId);
    if (!enabled) throw new NotFoundError('Deploy Key');
    return enabled;
  }

  /**
   * `POST /projects/:id/deploy_keys`: the key as this project has it already, or a key the caller
   * can reach enabled here, or a new key.
   */
  async add(
    caller: AuthenticatedCaller,
    idOrPath: number | string,
    input: NewDeployKeyInput & { canPush: boolean },
  ): Promise<EnabledDeployKey> {
    const projectId = await this.#projectId(caller, idOrPath);
    const parsed = parseSshKey(input.key);
    return this.#em.transactional(async () => {
      const existing = parsed.ok ? await this.#keys.findByFingerprint(parsed.key.fingerprintSha256) : null;
      if (existing) {
        const enabled = await this.#keys.findEnabled(projectId, existing.id);
        if (enabled) return enabled;
        if (await this.#reaches(caller, existing)) {
          return { key: existing, link: await this.#keys.enable({ keyId: existing.id, projectId, canPush: input.canPush }) };
        }
      }
      const key = await this.#newKey(caller, input, false);
      return { key, link: await this.#keys.enable({ keyId: key.id, projectId, canPush: input.canPush }) };
    });
  }

  /** `PUT /projects/:id/deploy_keys/:key_id`: its title and whether it may push here. */
  async update(
    caller: AuthenticatedCaller,
    idOrPath: number | string,
    keyId: number,
    changes: { title?: string | undefined; canPush?: boolean | undefined },
  ): Promise<EnabledDeployKey> {
    const enabled = await this.get(caller, idOrPath, keyId);
    return this.#em.transactional(async () => {
      // An instance key's title is the administrators' to change.
      if (changes.title !== undefined && (!enabled.key.public || caller.isAdmin)) enabled.key.title = changes.title;
      if (changes.canPush !== undefined) enabled.link.canPush = changes.canPush;
      await this.#keys.flush();
      return enabled;
    });
  }

  /** `POST /projects/:id/deploy_keys/:key_id/enable`: a key the caller can reach, enabled read-only here. */
  async enable(caller: AuthenticatedCaller, idOrPath: number | string, keyId: number): Promise<DeployKey> {
    const projectId = await this.#projectId(caller, idOrPath);
    return this.#em.transactional(async () => {
      const key = await this.#keys.findById(keyId);
      if (!key || !(await this.#reaches(caller, key))) throw new NotFoundError('Deploy Key');
      if (!(await this.#keys.findEnabled(projectId, key.id))) await this.#keys.enable({ keyId: key.id, projectId, canPush: false });
      return key;
    });
  }

  /** Disables the key here; a project key enabled nowhere else goes with it. */
  async remove(caller: AuthenticatedCaller, idOrPath: number | string, keyId: number): Promise<void> {
    const enabled = await this.get(caller, idOrPath, keyId);
    await this.#em.transactional(async () => {
      await this.#keys.disable(enabled.link);
      if (!enabled.key.public && (await this.#keys.projectIdsOf(enabled.key.id)).length === 0) await this.#keys.remove(enabled.key);
    });
  }

  /** GitLab's accessible deploy keys: instance keys, and keys of projects the caller maintains. */
  async #reaches(caller: AuthenticatedCaller, key: DeployKey): Promise<boolean> {
    if (key.public) return true;
    const viewer = await this.#access.viewerOf(caller);
    if (isAdmin(viewer)) return true;
    const levels = await this.#access.projectAccessLevels(viewer, await this.#keys.projectIdsOf(key.id));
    return [...levels.values()].some((level) => level >= ACCESS_LEVEL.MAINTAINER);
  }

  async #newKey(caller: AuthenticatedCaller, input: NewDeployKeyInput, instance: boolean): Promise<DeployKey> {
    const parsed = parseSshKey(input.key);
    if (!parsed.ok) throw new FieldValidationError({ key: parsed.problems });
    if (await this.#keys.findByFingerprint(parsed.key.fingerprintSha256)) {
      throw new FieldValidationError({ fingerprint_sha256: ['has already been taken'] });
    }
    return this.#keys.insert({
      userId: caller.userId,
      title: input.title,
      key: parsed.key.line,
      fingerprintMd5: parsed.key.fingerprintMd5,
      fingerprintSha256: parsed.key.fingerprintSha256,
      public: instance,
      expiresAt: input.expiresAt ?? null,
    });
  }
}
