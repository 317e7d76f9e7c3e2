import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import type { User } from '../users/user.entity.ts';
import type { UserEmail } from './user-email.entity.ts';
import type { UserEmailStore } from './user-emails-store.ts';
import { userEmailAddedEvent, userEmailRemovedEvent } from './user-emails.events.ts';

/** GitLab's (Devise's) check of an address. */
const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+$/;

/**
 * Users' secondary emails. Routes resolve the owner and check who may act; a new address is
 * unconfirmed unless an administrator skips its confirmation, and only confirmed addresses
 * identify their user (commit authors). Each address added or removed is an event (audited).
 */
export class UserEmailsService {
  readonly #em: EntityManager;
  readonly #emails: UserEmailStore;

  constructor(options: { em: EntityManager; emails: UserEmailStore }) {
    this.#em = options.em;
    this.#emails = options.emails;
  }

  list(owner: User, window: PageWindow): Promise<Page<UserEmail>> {
    return this.#emails.listByUser(owner.id, window);
  }

  /** Another user's address is as unknown as a missing one. */
  async get(owner: User, emailId: number): Promise<UserEmail> {
    const email = await this.#emails.findForUser(owner.id, emailId);
    if (!email) throw new NotFoundError('Email');
    return email;
  }

  /** `skip_confirmation` counts for administrators only, as in GitLab's `Emails::CreateService`. */
  async add(
    actor: AuthenticatedCaller,
    owner: User,
    input: { email: string; skip_confirmation?: boolean | undefined },
  ): Promise<UserEmail> {
    const address = input.email.trim();
    if (!address) throw new FieldValidationError({ email: ["can't be blank"] });
    if (!EMAIL_PATTERN.test(address)) throw new FieldValidationError({ email: ['is invalid'] });
    const confirmed = input.skip_confirmation === true && actor.isAdmin;
    return this.#em.transactional(async (em) => {
      const email = await this.#emails.insert({ userId: owner.id, email: address, confirmedAt: confirmed ? new Date() : null });
      recordEvent(em, { ...userEmailAddedEvent(owner, email), actor: actorOf(actor) });
      return email;
    });
  }

  async remove(actor: AuthenticatedCaller, owner: User, emailId: number): Promise<void> {
    await this.#em.transactional(async (em) => {
      const email = await this.get(owner, emailId);
      recordEvent(em, { ...userEmailRemovedEvent(owner, email), actor: actorOf(actor) });
      await this.#emails.remove(email);
    });
  }
}
