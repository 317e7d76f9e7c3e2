import { z } from 'zod';
import { AVAILABILITIES } from './user-status.entity.ts';

/** GitLab's choices for `clear_status_after`, and how long each lasts. */
export const CLEAR_STATUS_AFTER_MS = {
  '30_minutes': 30 * 60_000,
  '3_hours': 3 * 3_600_000,
  '8_hours': 8 * 3_600_000,
  '1_day': 86_400_000,
  '3_days': 3 * 86_400_000,
  '7_days': 7 * 86_400_000,
  '30_days': 30 * 86_400_000,
} as const;
type ClearStatusAfter = keyof typeof CLEAR_STATUS_AFTER_MS;

/** `PUT /user/status`: parameters left out are reset. The 100-character message limit is a field error. */
export const setStatusParams = z.object({
  emoji: z.string().max(255).optional(),
  message: z.string().max(10_000).optional(),
  availability: z.enum(AVAILABILITIES).optional(),
  clear_status_after: z.enum(Object.keys(CLEAR_STATUS_AFTER_MS) as [ClearStatusAfter, ...ClearStatusAfter[]]).optional(),
});
export type SetStatusParams = z.output<typeof setStatusParams>;

export const statusOwnerParams = z.object({ user_id: z.string().max(255) });
