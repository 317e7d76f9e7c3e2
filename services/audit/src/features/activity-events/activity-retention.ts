import type { Logger } from '@platform/logger';
import type { Schedule } from '@platform/service';
import type { ActivityEventStore } from './activity-events-store.ts';

/** How long events are kept, as GitLab keeps them. */
export const RETENTION_YEARS = 2;

/** The oldest creation time an event may have at `now` and still be kept. */
export function retentionCutoff(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RETENTION_YEARS);
  return cutoff;
}

/** Removes events older than the retention period every `intervalMs`, on one replica at a time. */
export function activityRetention(options: { store: ActivityEventStore; logger: Logger; intervalMs: number }): Schedule {
  return {
    name: 'audit.activity_retention',
    intervalMs: options.intervalMs,
    async run() {
      const cutoff = retentionCutoff(new Date());
      const removed = await options.store.removeCreatedBefore(cutoff);
      if (removed > 0) options.logger.info({ removed, cutoff }, 'removed activity events past retention');
    },
  };
}
