import type { EntityManager } from '@mikro-orm/postgresql';
import { UserStatus } from './user-status.entity.ts';

export type StatusFields = Pick<UserStatus, 'emoji' | 'message' | 'availability' | 'clearStatusAt'>;

export interface UserStatusStore {
  find(userId: number): Promise<UserStatus | null>;
  /** Replaces the user's status. */
  save(userId: number, status: StatusFields): Promise<UserStatus>;
  remove(userId: number): Promise<void>;
}

export class PgUserStatusStore implements UserStatusStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  find(userId: number): Promise<UserStatus | null> {
    return this.#em.findOne(UserStatus, { userId });
  }

  async save(userId: number, status: StatusFields): Promise<UserStatus> {
    // One statement, so two concurrent first statuses cannot both insert.
    await this.#em.execute(
      `insert into user_statuses (user_id, emoji, message, availability, clear_status_at) values (?, ?, ?, ?, ?)
       on conflict (user_id) do update set emoji = excluded.emoji, message = excluded.message,
         availability = excluded.availability, clear_status_at = excluded.clear_status_at, updated_at = now()`,
      [userId, status.emoji, status.message, status.availability, status.clearStatusAt],
    );
    return this.#em.findOneOrFail(UserStatus, { userId }, { refresh: true });
  }

  async remove(userId: number): Promise<void> {
    await this.#em.nativeDelete(UserStatus, { userId });
  }
}
