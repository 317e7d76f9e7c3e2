import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { AuthenticatedCaller } from '@platform/auth';
import { TooManyRequestsError } from '@platform/errors';

const WINDOW_MS = 60_000;

/**
 * The `issues_create_limit` application setting: issues a user may create per minute (0: no
 * limit). Counted from the issues table, so every replica sees the same count; refused as too
 * many requests once the limit is reached.
 */
export function issueCreationLimit(options: {
  settings: ApplicationSettingsSource;
  createdSince: (authorId: number, since: Date) => Promise<number>;
}): (caller: AuthenticatedCaller) => Promise<void> {
  return async (caller) => {
    const limit = options.settings.current().issuesCreateLimit;
    if (limit <= 0) return;
    const created = await options.createdSince(caller.userId, new Date(Date.now() - WINDOW_MS));
    if (created >= limit) throw new TooManyRequestsError();
  };
}
