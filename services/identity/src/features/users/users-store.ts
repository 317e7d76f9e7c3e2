import type { EntityManager } from '@mikro-orm/postgresql';
import { translateDbError } from '@platform/db';
import { Identity, User } from './user.entity.ts';

export type NewUser = Pick<User, 'username' | 'email' | 'name'> & Partial<Omit<User, 'id' | 'createdAt' | 'updatedAt'>>;
export type NewIdentity = Pick<Identity, 'provider' | 'externUid'> & { samlProviderId?: number | null };

export interface UserStore {
  findById(id: number): Promise<User | null>;
  findByIdOrUsername(idOrUsername: string): Promise<User | null>;
  findByIds(ids: number[]): Promise<User[]>;
  /** Inserts now (not at commit) so that a duplicate surfaces as a ConflictError here. */
  insert(user: NewUser, identities: NewIdentity[]): Promise<User>;
  identitiesOf(userIds: number[]): Promise<Map<number, Identity[]>>;
}

/** Users in PostgreSQL. `em` resolves to the current unit of work (request, call or transaction). */
export class PgUserStore implements UserStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findById(id: number): Promise<User | null> {
    return this.#em.findOne(User, { id });
  }

  findByIdOrUsername(idOrUsername: string): Promise<User | null> {
    if (/^\d+$/.test(idOrUsername)) return this.findById(Number(idOrUsername));
    return this.#em.findOne(User, { username: { $ilike: escapeLike(idOrUsername) } });
  }

  findByIds(ids: number[]): Promise<User[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#em.find(User, { id: { $in: ids } });
  }

  async insert(user: NewUser, identities: NewIdentity[]): Promise<User> {
    const entity = this.#em.create(User, user);
    try {
      await this.#em.flush();
      for (const identity of identities) this.#em.create(Identity, { ...identity, userId: entity.id });
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict: conflictMessage(error) });
    }
    return entity;
  }

  async identitiesOf(userIds: number[]): Promise<Map<number, Identity[]>> {
    const byUser = new Map<number, Identity[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return byUser;
    const rows = await this.#em.find(Identity, { userId: { $in: userIds } }, { orderBy: { id: 'asc' } });
    for (const row of rows) byUser.get(row.userId)?.push(row);
    return byUser;
  }
}

/** `users_email_lower_key` -> `Email has already been taken`, GitLab's wording. */
function conflictMessage(error: unknown): string {
  const text = String((error as { message?: string }).message ?? '');
  if (text.includes('users_email_lower_key')) return 'Email has already been taken';
  if (text.includes('users_username_lower_key')) return 'Username has already been taken';
  if (text.includes('identities_provider_extern_uid_key')) return 'Identity has already been taken';
  return 'Conflict';
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}
