import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage, likePattern, type Page, type PageWindow } from '@platform/db';
import { Namespace } from '../access/namespace.entity.ts';
import { Project } from '../access/project.entity.ts';
import { PersonalAccessToken } from './personal-access-token.entity.ts';

export type NewToken = Pick<PersonalAccessToken, 'userId' | 'name' | 'tokenDigest' | 'scopes' | 'expiresAt'> &
  Partial<Pick<PersonalAccessToken, 'description' | 'impersonation' | 'resourceType' | 'resourceId' | 'accessLevel'>>;

/** What `GET /personal_access_tokens` filters by; dates compare as GitLab's do, exclusive. */
export interface TokenListFilter {
  userId?: number;
  /** `active`: neither revoked nor expired; `inactive`: either. */
  state?: 'active' | 'inactive';
  revoked?: boolean;
  createdBefore?: Date;
  createdAfter?: Date;
  lastUsedBefore?: Date;
  lastUsedAfter?: Date;
  /** Part of the name, case-insensitive. */
  search?: string;
  /** Impersonation tokens only, or none of them. */
  impersonation?: boolean;
  /** A project's or group's access tokens. */
  resource?: { type: 'project' | 'group'; id: number };
  /** `YYYY-MM-DD`: expiry dates up to this day have passed. */
  today: string;
}

export interface TokenStore {
  findByDigest(digest: string): Promise<PersonalAccessToken | null>;
  findById(id: number): Promise<PersonalAccessToken | null>;
  list(filter: TokenListFilter, window: PageWindow): Promise<Page<PersonalAccessToken>>;
  insert(token: NewToken): Promise<PersonalAccessToken>;
  /** Marks the token revoked; false when it already was. */
  revoke(id: number): Promise<boolean>;
  /** Records a use unless one was recorded since `unlessSince`: at most one write per interval. */
  touchLastUsed(id: number, options: { now: Date; unlessSince: Date }): Promise<void>;
  /** Whether the project or group a project or group access token was made for still exists. */
  resourceExists(resource: { type: 'project' | 'group'; id: number }): Promise<boolean>;
}

export class PgTokenStore implements TokenStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findByDigest(digest: string): Promise<PersonalAccessToken | null> {
    return this.#em.findOne(PersonalAccessToken, { tokenDigest: digest });
  }

  findById(id: number): Promise<PersonalAccessToken | null> {
    return this.#em.findOne(PersonalAccessToken, { id });
  }

  async resourceExists(resource: { type: 'project' | 'group'; id: number }): Promise<boolean> {
    const found =
      resource.type === 'project'
        ? await this.#em.count(Project, { id: resource.id })
        : await this.#em.count(Namespace, { id: resource.id, kind: 'group' });
    return found > 0;
  }

  list(filter: TokenListFilter, window: PageWindow): Promise<Page<PersonalAccessToken>> {
    const conditions: Array<FilterQuery<PersonalAccessToken>> = [];
    if (filter.userId !== undefined) conditions.push({ userId: filter.userId });
    if (filter.revoked !== undefined) conditions.push({ revoked: filter.revoked });
    if (filter.state === 'active') conditions.push({ revoked: false, $or: [{ expiresAt: null }, { expiresAt: { $gt: filter.today } }] });
    if (filter.state === 'inactive') conditions.push({ $or: [{ revoked: true }, { expiresAt: { $lte: filter.today } }] });
    if (filter.createdBefore) conditions.push({ createdAt: { $lt: filter.createdBefore } });
    if (filter.createdAfter) conditions.push({ createdAt: { $gt: filter.createdAfter } });
    if (filter.lastUsedBefore) conditions.push({ lastUsedAt: { $lt: filter.lastUsedBefore } });
    if (filter.lastUsedAfter) conditions.push({ lastUsedAt: { $gt: filter.lastUsedAfter } });
    if (filter.search) conditions.push({ name: { $ilike: likePattern(filter.search) } });
    if (filter.impersonation !== undefined) conditions.push({ impersonation: filter.impersonation });
    if (filter.resource) conditions.push({ resourceType: filter.resource.type, resourceId: filter.resource.id });
    return findPage(this.#em, PersonalAccessToken, { $and: conditions }, { orderBy: { id: 'desc' }, window });
  }

  async insert(token: NewToken): Promise<PersonalAccessToken> {
    const entity = this.#em.create(PersonalAccessToken, token);
    await this.#em.flush();
    return entity;
  }

  async revoke(id: number): Promise<boolean> {
    const changed = await this.#em.nativeUpdate(PersonalAccessToken, { id, revoked: false }, { revoked: true });
    return changed > 0;
  }

  async touchLastUsed(id: number, options: { now: Date; unlessSince: Date }): Promise<void> {
    await this.#em.nativeUpdate(
      PersonalAccessToken,
      { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: options.unlessSince } }] },
      { lastUsedAt: options.now },
    );
  }
}
