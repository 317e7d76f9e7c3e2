import { Migration } from '@platform/db';

export class Migration20261124170100_notes extends Migration {
  override name = 'Migration20261124170100_notes';

  override up(): void {
    this.addSql(`create table notes (
      id bigserial primary key,
      project_id bigint not null,
      noteable_type text not null check (noteable_type in ('MergeRequest')),
      noteable_id bigint not null references merge_requests (id) on delete cascade,
      noteable_iid integer not null,
      author_id bigint not null,
      body text not null,
      system boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index notes_noteable_created_idx on notes (noteable_id, created_at, id)');
    this.addSql('create index notes_noteable_updated_idx on notes (noteable_id, updated_at, id)');
  }
}
