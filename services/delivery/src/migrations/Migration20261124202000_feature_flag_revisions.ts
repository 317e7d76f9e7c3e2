import { Migration } from '@platform/db';

export class Migration20261124202000_feature_flag_revisions extends Migration {
  override name = 'Migration20261124202000_feature_flag_revisions';

  override up(): void {
    // Each change to what a project's Unleash clients are answered takes a new revision in its own
    // transaction, so an answer kept for a revision is the answer for as long as the revision stands.
    this.addSql(`create table feature_flag_revisions (
      project_id bigint primary key,
      revision bigint not null
    )`);
  }
}
