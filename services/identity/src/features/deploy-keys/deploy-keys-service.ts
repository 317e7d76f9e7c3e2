import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import { parseSshKey } from '../ssh-keys/ssh-key-parsing.ts';
import type { DeployKey } from './deploy-key.entity.ts';
import type { DeployKeyStore, EnabledDeployKey } from './deploy-keys-store.ts';
import { deployKeyAddedEvent, deployKeyRemovedEvent } from './deploy-keys.events.ts';

export interface NewDeployKeyInput {
  key: string;
  title: string;
  expiresAt?: Date | undefined;
}

/** The project a key is enabled on, as events name it. */
interface KeyProject {
  id: number;
  pathWithNamespace: string;
}

/**
 * Deploy keys, as GitLab's: maintainers add keys to their projects, enable a key they can reach
 * (one of another project they maintain, or an instance key) on another project, choose whether
 * it may push there, and disable it; a key enabled nowhere that is not an instance key goes with
 * its last project. Administrators list every key and add instance keys. Keys added, enabled and
 * disabled are events (audited).
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
    return this.#em.transactional(async (em) => {
      const key = await this.#newKey(caller, input, true);
      recordEvent(em, { ...deployKeyAddedEvent(key), actor: actorOf(caller) });
      return key;
    });
  }

  async #project(caller: AuthenticatedCaller, idOrPath: number | string): Promise<KeyProject> {
    const viewer = await this.#access.viewerOf(caller);
    const { project, namespace } = await this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.MAINTAINER);
    return { id: project.id, pathWithNamespace: `${namespace.fullPath}/${project.path}` };
  }

  async list(caller: AuthenticatedCaller, idOrPath: number | string, window: PageWindow): Promise<Page<EnabledDeployKey>> {
    return this.#keys.listOfProject((await this.#project(caller, idOrPath)).id, window);
  }

  async get(caller: AuthenticatedCaller, idOrPath: number | string, keyId: number): Promise<EnabledDeployKey> {
    return this.#enabledOn(await this.#project(caller, idOrPath), keyId);
  }

  async #enabledOn(project: KeyProject, keyId: number): Promise<EnabledDeployKey> {
    const enabled = await this.#keys.findEnabled(project.id, keyId);
    if (!enabled) throw new NotFoundError('Deploy Key');
    return enabled;
  }

  /** Enables `key` on `project`, an event whoever enables it. */
  async #enable(options: {
    caller: AuthenticatedCaller;
    key: DeployKey;
    project: KeyProject;
    canPush: boolean;
  }): Promise<EnabledDeployKey> {
    const { key, project, canPush } = options;
    const link = await this.#keys.enable({ keyId: key.id, projectId: project.id, canPush });
    recordEvent(this.#em, { ...deployKeyAddedEvent(key, { project, canPush }), actor: actorOf(options.caller) });
    return { key, link };
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
    const project = await this.#project(caller, idOrPath);
    const parsed = await parseSshKey(input.key);
    return this.#em.transactional(async () => {
      const existing = parsed.ok ? await this.#keys.findByFingerprint(parsed.key.fingerprintSha256) : null;
      if (existing) {
        const enabled = await this.#keys.findEnabled(project.id, existing.id);
        if (enabled) return enabled;
        if (await this.#reaches(caller, existing)) return this.#enable({ caller, key: existing, project, canPush: input.canPush });
      }
      const key = await this.#newKey(caller, input, false);
      return this.#enable({ caller, key, project, canPush: input.canPush });
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
    const project = await this.#project(caller, idOrPath);
    return this.#em.transactional(async () => {
      const key = await this.#keys.findById(keyId);
      if (!key || !(await this.#reaches(caller, key))) throw new NotFoundError('Deploy Key');
      if (!(await this.#keys.findEnabled(project.id, key.id))) await this.#enable({ caller, key, project, canPush: false });
      return key;
    });
  }

  /** Disables the key here; a project key enabled nowhere else goes with it. */
  async remove(caller: AuthenticatedCaller, idOrPath: number | string, keyId: number): Promise<void> {
    const project = await this.#project(caller, idOrPath);
    const { key, link } = await this.#enabledOn(project, keyId);
    await this.#em.transactional(async (em) => {
      await this.#keys.disable(link);
      const keyDeleted = !key.public && (await this.#keys.projectIdsOf(key.id)).length === 0;
      recordEvent(em, { ...deployKeyRemovedEvent(key, { project, keyDeleted }), actor: actorOf(caller) });
      if (keyDeleted) await this.#keys.remove(key);
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
    const parsed = await parseSshKey(input.key);
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
