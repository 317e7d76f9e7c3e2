import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage, insertUnlessPresent, type Page, type PageWindow } from '@platform/db';
import { FieldValidationError } from '@platform/errors';
import { User } from '../users/user.entity.ts';
import { UserEmail } from './user-email.entity.ts';

export type NewUserEmail = Pick<UserEmail, 'userId' | 'email' | 'confirmedAt'>;

/** Users' secondary emails: unique across the instance, primary emails included, case-insensitively. */
export interface UserEmailStore {
  listByUser(userId: number, window: PageWindow): Promise<Page<UserEmail>>;
  findForUser(userId: number, emailId: number): Promise<UserEmail | null>;
  /** `email has already been taken` when anybody has the address, as a primary or a secondary email. */
  insert(email: NewUserEmail): Promise<UserEmail>;
  remove(email: UserEmail): Promise<void>;
}

export class PgUserEmailStore implements UserEmailStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  listByUser(userId: number, window: PageWindow): Promise<Page<UserEmail>> {
    return findPage(this.#em, UserEmail, { userId }, { orderBy: { id: 'asc' }, window });
  }

  findForUser(userId: number, emailId: number): Promise<UserEmail | null> {
    return this.#em.findOne(UserEmail, { id: emailId, userId });
  }

  async insert(email: NewUserEmail): Promise<UserEmail> {
    const primary = await this.#em.count(User, { [raw('lower(email)')]: email.email.toLowerCase() });
    const inserted = primary > 0 ? null : await insertUnlessPresent(this.#em, UserEmail, email);
    if (!inserted) throw new FieldValidationError({ email: ['has already been taken'] });
    return inserted;
  }

  async remove(email: UserEmail): Promise<void> {
    this.#em.remove(email);
    await this.#em.flush();
  }
}
