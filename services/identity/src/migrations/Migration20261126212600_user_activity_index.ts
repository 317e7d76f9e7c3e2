import { Migration } from '@platform/db';

export class Migration20261126212600_user_activity_index extends Migration {
  override name = 'Migration20261126212600_user_activity_index';

  override up(): void {
    // `GET /user/activities` filters and sorts users by their last activity.
    this.addSql('create index users_last_activity_on_index on users (last_activity_on, id)');
  }
}
