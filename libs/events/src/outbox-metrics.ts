import { Gauge, type Registry } from 'prom-client';
import type { Orm } from '@platform/db';

/**
 * `outbox_unpublished_events`: the rows the relay has yet to publish, counted when scraped
 * (an index-only scan of the partial index on unpublished rows). A backlog that grows means the
 * relay cannot reach Kafka, or that the service records events to a topic it does not publish.
 */
export function registerOutboxBacklog(options: { registry: Registry; orm: Orm }): void {
  new Gauge({
    name: 'outbox_unpublished_events',
    help: 'Events written to the outbox and not yet published to Kafka.',
    registers: [options.registry],
    async collect() {
      try {
        const rows = await options.orm.em
          .fork()
          .execute<Array<{ count: number }>>('select count(*)::int as count from outbox where published_at is null');
        this.set(rows[0]?.count ?? 0);
      } catch {
        // Unknown while the database is unreachable (readiness says so): no sample rather than a stale one, and the scrape still succeeds.
        this.reset();
      }
    },
  });
}
