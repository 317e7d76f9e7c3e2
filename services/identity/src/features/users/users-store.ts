import type { EntityManager } from '@mikro-orm/postgresql';
import { raw } from '@mikro-orm/core';
import { escapeLike, translateDbError } from '@platform/db';
import { Identity, User } from './user.entity.ts';

export type NewUser = Pick<User, 'username' | 'email' | 'name'> & Partial<Omit<User, 'id' | 'createdAt' | 'updatedAt'>>;
export type NewIdentity = Pick<Identity, 'provider' | 'externUid'> & { samlProviderId?: number | null };
export type UserChanges = Partial<Omit<User, 'id' | 'createdAt' | 'updatedAt'>>;

export interface UserStore {
  findById(id: number): Promise<User | null>;
  findByIdOrUsername(idOrUsername: string): Promise<User | null>;
  findByIds(ids: number[]): Promise<User[]>;
  /** Users by username, case-insensitively. */
  findByUsernames(usernames: string[]): Promise<User[]>;
  /** Users whose primary email or a secondary one is one of these (case-insensitively) and confirmed. */
  findByConfirmedEmails(emails: string[]): Promise<User[]>;
  /** Inserts now (not at commit) so that a duplicate surfaces as a ConflictError here. */
  insert(user: NewUser, identities: NewIdentity[]): Promise<User>;
  /** Applies `changes` and upserts the identity of its provider; a duplicate is a ConflictError. */
  update(user: User, changes: UserChanges, identity?: NewIdentity): Promise<void>;
  remove(user: User): Promise<void>;
  /** Removes the user's identity at `provider`; false when there was none. */
  removeIdentity(userId: number, provider: string): Promise<boolean>;
  countActiveAdminsOtherThan(userId: number): Promise<number>;
  /** Groups in which the user is the only owner: they would be left without one. */
  countSolelyOwnedGroups(userId: number): Promise<number>;
  /** The placeholder that inherits a soft-deleted user's contributions, created on first use. */
  ghostUser(emailDomain: string): Promise<User>;
  /** Sets `last_activity_on` to `day` (YYYY-MM-DD) unless it already is: what tells a dormant user from an active one. */
  recordActivity(userId: number, day: string): Promise<void>;
}

const MAXIMUM_ID = 2_147_483_647;

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
    if (/^\d+$/.test(idOrUsername)) {
      const id = Number(idOrUsername);
      // Ids are 32-bit; a larger number names nobody (and must not reach an integer column).
      return id <= MAXIMUM_ID ? this.findById(id) : Promise.resolve(null);
    }
    return this.#em.findOne(User, { username: { $ilike: escapeLike(idOrUsername) } });
  }

  findByIds(ids: number[]): Promise<User[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#em.find(User, { id: { $in: ids } });
  }

  findByUsernames(usernames: string[]): Promise<User[]> {
    if (usernames.length === 0) return Promise.resolve([]);
    return this.#em.find(User, { [raw('lower(username)')]: { $in: usernames.map((username) => username.toLowerCase()) } });
  }

  async findByConfirmedEmails(emails: string[]): Promise<User[]> {
    if (emails.length === 0) return [];
    const lowered = [...new Set(emails.map((email) => email.toLowerCase()))];
    // Confirmed secondary emails (the user-emails feature's table) identify their user as well.
    const secondary = await this.#em
      .getConnection()
      .execute<
        Array<{ user_id: number }>
      >(`select user_id from emails where lower(email) in (${lowered.map(() => '?').join(', ')}) and confirmed_at is not null`, lowered);
    return this.#em.find(User, {
      $or: [{ [raw('lower(email)')]: { $in: lowered }, confirmedAt: { $ne: null } }, { id: { $in: secondary.map((row) => row.user_id) } }],
    });
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
    // Columns the database fills in (the personal namespace, made by a trigger) are read back.
    await this.#em.refresh(entity);
    return entity;
  }

  async update(user: User, changes: UserChanges, identity?: NewIdentity): Promise<void> {
    this.#em.assign(user, changes);
    try {
      if (identity) {
        const existing = await this.#em.findOne(Identity, { userId: user.id, provider: identity.provider });
        if (existing) this.#em.assign(existing, identity);
        else this.#em.create(Identity, { ...identity, userId: user.id });
      }
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict: conflictMessage(error) });
    }
  }

  async remove(user: User): Promise<void> {
    this.#em.remove(user);
    await this.#em.flush();
  }

  async removeIdentity(userId: number, provider: string): Promise<boolean> {
    const removed = await this.#em.nativeDelete(Identity, { userId, provider });
    return removed > 0;
  }

  countActiveAdminsOtherThan(userId: number): Promise<number> {
    return this.#em.count(User, { isAdmin: true, state: 'active', id: { $ne: userId } });
  }

  async countSolelyOwnedGroups(userId: number): Promise<number> {
    // Memberships live in `members` (source_type 'Group', access_level 50 = owner); a pending
    // access request (requested_at set) or an expired membership makes nobody an owner.
    const rows = await this.#em.execute<Array<{ count: string }>>(
      `select count(*) as count from members m
        where m.user_id = ? and m.source_type = 'Group' and m.access_level = 50 and m.requested_at is null
          and (m.expires_at is null or m.expires_at > now())
          and not exists (
            select 1 from members o
             where o.source_type = 'Group' and o.source_id = m.source_id and o.user_id <> m.user_id
               and o.access_level = 50 and o.requested_at is null and (o.expires_at is null or o.expires_at > now()))`,
      [userId],
    );
    return Number(rows[0]?.count ?? 0);
  }

  async recordActivity(userId: number, day: string): Promise<void> {
    await this.#em.nativeUpdate(
      User,
      { id: userId, $or: [{ lastActivityOn: null }, { lastActivityOn: { $ne: day } }] },
      { lastActivityOn: day },
    );
  }

  async ghostUser(emailDomain: string): Promise<User> {
    // Serialises concurrent first deletions so that only one ghost is ever created.
    await this.#em.execute("select pg_advisory_xact_lock(hashtext('identity.ghost_user'))");
    const existing = await this.#em.findOne(User, { userType: 'ghost' }, { orderBy: { id: 'asc' } });
    if (existing) return existing;
    const rows = await this.#em.execute<Array<{ taken: string }>>(
      `select lower(username) as taken from users where lower(username) like 'ghost%'
       union select lower(email) from users where lower(email) like 'ghost%'`,
    );
    const taken = new Set(rows.map((row) => row.taken));
    let username = 'ghost';
    for (let suffix = 1; taken.has(username) || taken.has(`${username}@${emailDomain}`.toLowerCase()); suffix += 1) {
      username = `ghost${suffix}`;
    }
    const ghost = this.#em.create(User, {
      username,
      email: `${username}@${emailDomain}`,
      name: 'Ghost User',
      state: 'blocked',
      userType: 'ghost',
      bio: 'This is a "Ghost User", created to hold all contributions of users that have since been deleted. This user cannot be removed.',
      projectsLimit: 0,
      canCreateGroup: false,
      confirmedAt: new Date(),
    });
    await this.#em.flush();
    return ghost;
  }
}

/** `users_email_lower_key` -> `Email has already been taken`, GitLab's wording. */
function conflictMessage(error: unknown): string {
  const text = String((error as { message?: string }).message ?? '');
  if (text.includes('users_email_lower_key')) return 'Email has already been taken';
  // A username is also the path of the user's namespace, which a group may already hold.
  if (text.includes('users_username_lower_key') || text.includes('namespaces_full_path_lower_key'))
    return 'Username has already been taken';
  if (text.includes('identities_provider_extern_uid_key')) return 'Identity has already been taken';
  return 'Conflict';
}
