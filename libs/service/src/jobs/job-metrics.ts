import { Gauge, type Registry } from 'prom-client';
import type { Orm } from '@platform/db';

const COUNTED_STATES = ['pending', 'running'] as const;

/**
 * `background_jobs{kind, state}`: the service's queue depth, jobs waiting (`pending`, due or
 * backing off) and under way (`running`) by kind, counted when scraped. Schedules' rows are not
 * jobs waiting and are left out. The kinds the service handles are reported even at zero.
 */
export function registerJobQueueDepth(options: { registry: Registry; orm: Orm; kinds: string[] }): void {
  new Gauge({
    name: 'background_jobs',
    help: 'Background jobs pending or running in the service queue, by kind and state (schedules not counted).',
    labelNames: ['kind', 'state'] as const,
    registers: [options.registry],
    async collect() {
      this.reset();
      try {
        const rows = await options.orm.em.fork().execute<Array<{ kind: string; state: string; count: number }>>(
          `select kind, state, count(*)::int as count from background_jobs
           where state in ('pending', 'running') and not recurring group by kind, state`,
        );
        for (const kind of options.kinds) for (const state of COUNTED_STATES) this.set({ kind, state }, 0);
        for (const row of rows) this.set({ kind: row.kind, state: row.state }, row.count);
      } catch {
        // Unknown while the database is unreachable (readiness says so): no samples, and the scrape still succeeds.
      }
    },
  });
}
