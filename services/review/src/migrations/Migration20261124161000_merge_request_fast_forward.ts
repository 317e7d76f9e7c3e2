import { Migration } from '@platform/db';

export class Migration20261124161000_merge_request_fast_forward extends Migration {
  override name = 'Migration20261124161000_merge_request_fast_forward';

  override up(): void {
    // Whether the source contains the target's head, from the last trial merge: projects that merge
    // only fast-forward or rebased sources show `need_rebase` when it does not.
    this.addSql('alter table merge_requests add column fast_forward_possible boolean not null default false');
    // Open ones are compared again on their next read, which fills the new column.
    this.addSql("update merge_requests set merge_status = 'unchecked' where state = 'opened'");
  }
}
