import { Migration } from '@platform/db';
import { eventTablesSql } from '../event-tables.ts';

/** Creates the outbox and processed-events tables, or leaves them as a service's first migration made them. */
export class Migration20261122180000_event_tables extends Migration {
  override up(): void {
    for (const sql of eventTablesSql) this.addSql(sql);
  }
}
