import { Migration } from '@platform/db';

/** Pushed commits as their pushes described them, for the `commit` of pipeline payloads. */
export class Migration20261126221000_commit_copies extends Migration {
  override name = 'Migration20261126221000_commit_copies';

  override up(): void {
    this.addSql(`create table commit_copies (
      project_id bigint not null,
      sha text not null,
      message text not null,
      author_name text not null,
      author_email text not null,
      timestamp text not null,
      primary key (project_id, sha)
    )`);
  }
}
