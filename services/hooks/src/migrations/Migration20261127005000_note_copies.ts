import { Migration } from '@platform/db';

/** The last state of each comment, for the `note_events` test's sample (the project's latest). */
export class Migration20261127005000_note_copies extends Migration {
  override name = 'Migration20261127005000_note_copies';

  override up(): void {
    this.addSql(`create table note_copies (
      id bigint primary key,
      project_id bigint not null,
      facts jsonb not null
    )`);
    this.addSql('create index note_copies_project_idx on note_copies (project_id, id)');
  }
}
