import { Migration } from '@platform/db';

/** Which job sends a hook's deliveries now, and until when, so that they go out one at a time and in order. */
export class Migration20261126190000_hook_delivery_lease extends Migration {
  override name = 'Migration20261126190000_hook_delivery_lease';

  override up(): void {
    this.addSql('alter table web_hooks add column delivering_by uuid, add column delivering_until timestamptz');
  }
}
