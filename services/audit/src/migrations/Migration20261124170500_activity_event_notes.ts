import { Migration } from '@platform/db';

/** The comment an activity event of a note shows (`note`). */
export class Migration20261124170500_activity_event_notes extends Migration {
  override name = 'Migration20261124170500_activity_event_notes';

  override up(): void {
    this.addSql('alter table activity_events add column note jsonb');
  }
}
