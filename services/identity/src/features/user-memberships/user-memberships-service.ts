import type { Caller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { NotFoundError } from '@platform/errors';
import type { UserStore } from '../users/users-store.ts';
import type { Membership, UserActivity, UserMembershipsReadModel } from './user-memberships-read-model.ts';

/** What GitLab's `/user/activities` reaches back to by default. */
const DEFAULT_ACTIVITY_MONTHS = 6;

/** `GET /users/:user_id/memberships` and `GET /user/activities`. */
export class UserMembershipsService {
  readonly #users: UserStore;
  readonly #readModel: UserMembershipsReadModel;
  readonly #now: () => Date;

  constructor(options: { users: UserStore; readModel: UserMembershipsReadModel; now?: () => Date }) {
    this.#users = options.users;
    this.#readModel = options.readModel;
    this.#now = options.now ?? (() => new Date());
  }

  /** A user's memberships: `Project` lists projects only, `Namespace` groups only. */
  async memberships(userId: number, type: 'Project' | 'Namespace' | undefined, window: PageWindow): Promise<Page<Membership>> {
    if (!(await this.#users.findById(userId))) throw new NotFoundError('User');
    return this.#readModel.memberships(userId, type === undefined ? undefined : type === 'Project' ? 'Project' : 'Group', window);
  }

  /** Users active since `from` (six months ago by default); users with private profiles only for administrators. */
  activities(caller: Caller, from: Date | undefined, window: PageWindow): Promise<Page<UserActivity>> {
    const since = from ?? new Date(this.#now().setUTCMonth(this.#now().getUTCMonth() - DEFAULT_ACTIVITY_MONTHS));
    return this.#readModel.activities({ from: since, privateProfiles: caller.kind === 'user' && caller.isAdmin, window });
  }
}
