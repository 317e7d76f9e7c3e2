import { Migration } from '@platform/db';

export class Migration20261124170300_repository_storage_moves extends Migration {
  override name = 'Migration20261124170300_repository_storage_moves';

  override up(): void {
    this.addSql(`create table repository_storage_moves (
      id bigserial primary key,
      project_id bigint not null,
      state text not null,
      source_storage_name text not null,
      destination_storage_name text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      claimed_until timestamptz null,
      failure_reason text null
    )`);
    this.addSql('create index repository_storage_moves_project_id_index on repository_storage_moves (project_id)');
    // The worker looks only at moves with work left.
    this.addSql(
      "create index repository_storage_moves_pending_index on repository_storage_moves (id) where state in ('scheduled', 'started', 'replicated')",
    );
  }
}
