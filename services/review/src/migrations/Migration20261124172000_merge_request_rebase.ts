import { Migration } from '@platform/db';

export class Migration20261124172000_merge_request_rebase extends Migration {
  override name = 'Migration20261124172000_merge_request_rebase';

  override up(): void {
    // When the running rebase of the source began (null when none runs), and why the last rebase or merge failed.
    this.addSql('alter table merge_requests add column rebase_started_at timestamptz, add column merge_error text');
  }
}
