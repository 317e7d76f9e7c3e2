import { FieldValidationError } from '@platform/errors';
import type { User } from '../users/user.entity.ts';
import { isEmojiName } from './emoji-names.ts';
import type { UserStatus } from './user-status.entity.ts';
import type { UserStatusStore } from './user-status-store.ts';
import { CLEAR_STATUS_AFTER_MS, type SetStatusParams } from './user-status.schemas.ts';

const DEFAULT_EMOJI = 'speech_balloon';
const MAXIMUM_MESSAGE_LENGTH = 100;

export class UserStatusService {
  readonly #statuses: UserStatusStore;

  constructor(options: { statuses: UserStatusStore }) {
    this.#statuses = options.statuses;
  }

  /** The user's status; one whose `clear_status_at` has passed counts as cleared. */
  async get(user: User): Promise<UserStatus | null> {
    const status = await this.#statuses.find(user.id);
    if (!status || (status.clearStatusAt && status.clearStatusAt.getTime() <= Date.now())) return null;
    return status;
  }

  /**
   * Sets the whole status, as GitLab's PUT does: a missing emoji becomes `speech_balloon`.
   * No emoji, no message and no availability clears it.
   */
  async set(user: User, input: SetStatusParams): Promise<UserStatus | null> {
    const message = input.message?.trim() ?? '';
    const availability = input.availability ?? 'not_set';
    if (!input.emoji && !message && availability === 'not_set') {
      await this.#statuses.remove(user.id);
      return null;
    }
    const emoji = input.emoji || DEFAULT_EMOJI;
    const problems: Record<string, string[]> = {};
    if (!(await isEmojiName(emoji))) problems.emoji = ['is not a valid emoji name'];
    if (message.length > MAXIMUM_MESSAGE_LENGTH) problems.message = [`is too long (maximum is ${MAXIMUM_MESSAGE_LENGTH} characters)`];
    if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
    const clearStatusAt = input.clear_status_after ? new Date(Date.now() + CLEAR_STATUS_AFTER_MS[input.clear_status_after]) : null;
    return this.#statuses.save(user.id, { emoji, message: message || null, availability, clearStatusAt });
  }
}
