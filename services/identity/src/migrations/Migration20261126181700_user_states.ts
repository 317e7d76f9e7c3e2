import { Migration } from '@platform/db';

export class Migration20261126181700_user_states extends Migration {
  override name = 'Migration20261126181700_user_states';

  override up(): void {
    // Administrators deactivate dormant users and ban abusive ones, beside blocking.
    this.addSql('alter table users drop constraint users_state_check');
    this.addSql("alter table users add constraint users_state_check check (state in ('active', 'blocked', 'deactivated', 'banned'))");
  }
}
