import { Migration } from '@platform/db';

/** The last known state of each merge request and issue, for `changes` and for the payloads of their notes and approvals. */
export class Migration20261126205500_issuable_copies extends Migration {
  override name = 'Migration20261126205500_issuable_copies';

  override up(): void {
    this.addSql(`create table issuable_copies (
      type text not null check (type in ('MergeRequest', 'Issue')),
      id bigint not null,
      project_id bigint not null,
      facts jsonb not null,
      primary key (type, id)
    )`);
  }
}
