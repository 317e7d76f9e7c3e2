import { randomBytes } from 'node:crypto';
import { sql } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '@platform/events/database';
import { hashPassword } from '../access/passwords.ts';
import { User } from '../users/user.entity.ts';
import type { UserStore } from '../users/users-store.ts';
import { userCreatedEvent, userUpdatedEvent } from '../users/users.events.ts';
import { validateProfile } from '../users/users-service.ts';
import type { ProvisionedUserAttributes, ProvisioningUsers } from './scim-service.ts';

/**
 * Users as the group's identity provider creates and changes them: through the users store, with
 * the users feature's events. Their actor is null: no user of this service makes these changes.
 */
export class ScimProvisionedUsers implements ProvisioningUsers {
  readonly #em: EntityManager;
  readonly #users: UserStore;

  constructor(options: { em: EntityManager; users: UserStore }) {
    this.#em = options.em;
    this.#users = options.users;
  }

  findById(id: number): Promise<User | null> {
    return this.#users.findById(id);
  }

  findByIds(ids: number[]): Promise<User[]> {
    return this.#users.findByIds(ids);
  }

  findByUsername(username: string): Promise<User | null> {
    return this.#em.findOne(User, { [sql.lower((alias) => `${alias}.username`)]: username.toLowerCase() });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.#em.findOne(User, { [sql.lower((alias) => `${alias}.email`)]: email.toLowerCase() });
  }

  /** The identity provider vouches for the email; the password is random and never shown to anyone. */
  async create(attributes: ProvisionedUserAttributes): Promise<User> {
    validateProfile(attributes, attributes.email);
    const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
    const user = await this.#users.insert({ ...attributes, passwordHash, confirmedAt: new Date() }, []);
    recordEvent(this.#em, { ...userCreatedEvent(user), actor: null });
    return user;
  }

  async update(user: User, changes: Partial<ProvisionedUserAttributes>): Promise<User> {
    validateProfile(changes, changes.email ?? user.email);
    const audited = (Object.keys(changes) as Array<keyof ProvisionedUserAttributes>).map((attribute) => ({
      attribute,
      from: user[attribute],
      to: changes[attribute] ?? '',
    }));
    await this.#users.update(user, { ...changes, ...(changes.email !== undefined ? { confirmedAt: new Date() } : {}) });
    recordEvent(this.#em, { ...userUpdatedEvent(user, audited), actor: null });
    return user;
  }
}
