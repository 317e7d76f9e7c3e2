import { Migration } from '@platform/db';

export class Migration20261124143000_protected_branch_users_and_groups extends Migration {
  override name = 'Migration20261124143000_protected_branch_users_and_groups';

  override up(): void {
    this.addSql('alter table protected_branch_access_levels add column user_id bigint, add column group_id bigint');
    this.addSql(
      'alter table protected_branch_access_levels add constraint protected_branch_access_levels_one_entity check (user_id is null or group_id is null)',
    );
  }
}
