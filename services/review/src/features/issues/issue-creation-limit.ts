import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { AuthenticatedCaller } from '@platform/auth';
import { HttpStatusError } from '@platform/http';

const WINDOW_MS = 60_000;
const TOO_MANY = 'This endpoint has been requested too many times. Try again later.';

/**
 * The `issues_create_limit` application setting: issues a user may create per minute (0: no
 * limit). Counted from the issues table, so every replica sees the same count; GitLab answers
 * 429 with its message once the limit is reached.
 */
export function issueCreationLimit(options: {
  settings: ApplicationSettingsSource;
  createdSince: (authorId: number, since: Date) => Promise<number>;
}): (caller: AuthenticatedCaller) => Promise<void> {
  return async (caller) => {
    const limit = options.settings.current().issuesCreateLimit;
    if (limit <= 0) return;
    const created = await options.createdSince(caller.userId, new Date(Date.now() - WINDOW_MS));
    if (created >= limit) throw new HttpStatusError(429, TOO_MANY, { message: { error: TOO_MANY } });
  };
}
