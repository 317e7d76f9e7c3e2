import { Migration } from '@platform/db';

export class Migration20261124170200_subscriptions extends Migration {
  override name = 'Migration20261124170200_subscriptions';

  override up(): void {
    // A row is a user's explicit choice; without one, the author and assignees are subscribed.
    this.addSql(`create table subscriptions (
      merge_request_id bigint not null references merge_requests (id) on delete cascade,
      user_id bigint not null,
      subscribed boolean not null,
      updated_at timestamptz not null,
      primary key (merge_request_id, user_id)
    )`);
  }
}
