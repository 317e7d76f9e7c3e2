import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage, type Page, type PageWindow } from '@platform/db';
import { DeployToken } from './deploy-token.entity.ts';

export type NewDeployToken = Pick<DeployToken, 'name' | 'username' | 'tokenDigest' | 'scopes' | 'expiresAt' | 'projectId' | 'groupId'>;

/** Whose deploy tokens: a project's, a group's, or every one (the instance's list). */
export type DeployTokenOwner = { projectId: number } | { groupId: number } | 'all';

export interface DeployTokenStore {
  findById(owner: DeployTokenOwner, id: number): Promise<DeployToken | null>;
  findByDigest(tokenDigest: string): Promise<DeployToken | null>;
  /** `active`: neither revoked nor expired at `now`. */
  list(owner: DeployTokenOwner, filter: { active?: boolean; now: Date }, window: PageWindow): Promise<Page<DeployToken>>;
  insert(token: NewDeployToken): Promise<DeployToken>;
  remove(token: DeployToken): Promise<void>;
}

function ownerFilter(owner: DeployTokenOwner): FilterQuery<DeployToken> {
  if (owner === 'all') return {};
  return 'projectId' in owner ? { projectId: owner.projectId } : { groupId: owner.groupId };
}

export class PgDeployTokenStore implements DeployTokenStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findById(owner: DeployTokenOwner, id: number): Promise<DeployToken | null> {
    return this.#em.findOne(DeployToken, { $and: [{ id }, ownerFilter(owner)] });
  }

  findByDigest(tokenDigest: string): Promise<DeployToken | null> {
    return this.#em.findOne(DeployToken, { tokenDigest });
  }

  list(owner: DeployTokenOwner, filter: { active?: boolean; now: Date }, window: PageWindow): Promise<Page<DeployToken>> {
    const active: FilterQuery<DeployToken> = { revoked: false, $or: [{ expiresAt: null }, { expiresAt: { $gt: filter.now } }] };
    const inactive: FilterQuery<DeployToken> = { $or: [{ revoked: true }, { expiresAt: { $lte: filter.now } }] };
    const state: FilterQuery<DeployToken> = filter.active === undefined ? {} : filter.active ? active : inactive;
    return findPage(this.#em, DeployToken, { $and: [ownerFilter(owner), state] }, { orderBy: { id: 'asc' }, window });
  }

  async insert(token: NewDeployToken): Promise<DeployToken> {
    const entity = this.#em.create(DeployToken, token);
    await this.#em.flush();
    return entity;
  }

  async remove(token: DeployToken): Promise<void> {
    this.#em.remove(token);
    await this.#em.flush();
  }
}
