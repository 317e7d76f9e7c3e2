import { Migration } from '@platform/db';

export class Migration20261124171500_merge_request_approvals_before_merge extends Migration {
  override name = 'Migration20261124171500_merge_request_approvals_before_merge';

  override up(): void {
    // The deprecated `approvals_before_merge` is a merge request's own attribute (as GitLab's column):
    // merge requests are created and updated with it and show it, so it moves to their table.
    this.addSql('alter table merge_requests add column approvals_before_merge integer');
    this.addSql(`update merge_requests m set approvals_before_merge = s.approvals_before_merge
      from merge_request_approval_settings s where s.merge_request_id = m.id`);
    this.addSql('alter table merge_request_approval_settings drop column approvals_before_merge');
  }
}
