import { renderMarkdown } from '@platform/http/markdown';
import type { UserStatus } from './user-status.entity.ts';

/** GitLab's user status; a user without one shows every field empty. */
export function userStatusView(status: UserStatus | null) {
  return {
    emoji: status?.emoji ?? null,
    availability: status?.availability ?? null,
    message: status?.message ?? null,
    // Rendered with raw HTML escaped, so the result is safe to embed.
    message_html: renderMarkdown(status?.message ?? ''),
    clear_status_at: status?.clearStatusAt ?? null,
  };
}
