import type { AdministratorCheck, AuthenticatedCaller } from '@platform/auth';
import type { UserStore } from './users-store.ts';

/**
 * Identity's answer to "is this caller still an administrator?", from the user's row rather than
 * the flag the gateway signed: a demoted or blocked administrator is refused on the next request.
 */
export class CurrentAdministrators implements AdministratorCheck {
  readonly #users: UserStore;

  constructor(users: UserStore) {
    this.#users = users;
  }

  async isAdministrator(caller: AuthenticatedCaller): Promise<boolean> {
    const user = await this.#users.findById(caller.userId);
    return user !== null && user.isAdmin && user.state === 'active';
  }
}
