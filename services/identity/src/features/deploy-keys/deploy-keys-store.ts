import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage, type Page, type PageWindow } from '@platform/db';
import { DeployKey, DeployKeyProject } from './deploy-key.entity.ts';

export type NewDeployKey = Pick<DeployKey, 'userId' | 'title' | 'key' | 'fingerprintMd5' | 'fingerprintSha256' | 'public' | 'expiresAt'>;

/** A deploy key as a project has it enabled. */
export interface EnabledDeployKey {
  key: DeployKey;
  link: DeployKeyProject;
}

export interface DeployKeyStore {
  findById(id: number): Promise<DeployKey | null>;
  findByFingerprint(fingerprintSha256: string): Promise<DeployKey | null>;
  list(filter: { publicOnly: boolean }, window: PageWindow): Promise<Page<DeployKey>>;
  listOfProject(projectId: number, window: PageWindow): Promise<Page<EnabledDeployKey>>;
  findEnabled(projectId: number, keyId: number): Promise<EnabledDeployKey | null>;
  /** The projects the key is enabled on. */
  projectIdsOf(keyId: number): Promise<number[]>;
  insert(key: NewDeployKey): Promise<DeployKey>;
  enable(options: { keyId: number; projectId: number; canPush: boolean }): Promise<DeployKeyProject>;
  disable(link: DeployKeyProject): Promise<void>;
  remove(key: DeployKey): Promise<void>;
  flush(): Promise<void>;
}

export class PgDeployKeyStore implements DeployKeyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findById(id: number): Promise<DeployKey | null> {
    return this.#em.findOne(DeployKey, { id });
  }

  findByFingerprint(fingerprintSha256: string): Promise<DeployKey | null> {
    return this.#em.findOne(DeployKey, { fingerprintSha256 });
  }

  list(filter: { publicOnly: boolean }, window: PageWindow): Promise<Page<DeployKey>> {
    return findPage(this.#em, DeployKey, filter.publicOnly ? { public: true } : {}, { orderBy: { id: 'asc' }, window });
  }

  async listOfProject(projectId: number, window: PageWindow): Promise<Page<EnabledDeployKey>> {
    const links = await findPage(this.#em, DeployKeyProject, { projectId }, { orderBy: { deployKeyId: 'asc' }, window });
    const keys = new Map(
      (await this.#em.find(DeployKey, { id: { $in: links.items.map((link) => link.deployKeyId) } })).map((key) => [key.id, key]),
    );
    return {
      ...links,
      items: links.items.flatMap((link) => (keys.has(link.deployKeyId) ? [{ key: keys.get(link.deployKeyId)!, link }] : [])),
    };
  }

  async findEnabled(projectId: number, keyId: number): Promise<EnabledDeployKey | null> {
    const link = await this.#em.findOne(DeployKeyProject, { projectId, deployKeyId: keyId });
    const key = link ? await this.findById(keyId) : null;
    return link && key ? { key, link } : null;
  }

  async projectIdsOf(keyId: number): Promise<number[]> {
    return (await this.#em.find(DeployKeyProject, { deployKeyId: keyId })).map((link) => link.projectId);
  }

  async insert(key: NewDeployKey): Promise<DeployKey> {
    const entity = this.#em.create(DeployKey, key);
    await this.#em.flush();
    return entity;
  }

  async enable(options: { keyId: number; projectId: number; canPush: boolean }): Promise<DeployKeyProject> {
    const link = this.#em.create(DeployKeyProject, { deployKeyId: options.keyId, projectId: options.projectId, canPush: options.canPush });
    await this.#em.flush();
    return link;
  }

  async disable(link: DeployKeyProject): Promise<void> {
    this.#em.remove(link);
    await this.#em.flush();
  }

  async remove(key: DeployKey): Promise<void> {
    this.#em.remove(key);
    await this.#em.flush();
  }

  flush(): Promise<void> {
    return this.#em.flush();
  }
}
