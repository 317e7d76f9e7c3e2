import { Migration } from '@platform/db';

export class Migration20261127001600_allow_merge_on_skipped_pipeline extends Migration {
  override name = 'Migration20261127001600_allow_merge_on_skipped_pipeline';

  override up(): void {
    // GitLab's `allow_merge_on_skipped_pipeline`: null until a project sets it, as GitLab's project settings keep it.
    this.addSql('alter table projects add column allow_merge_on_skipped_pipeline boolean');
  }
}
