import { Migration } from '@platform/db';

/** The last state of each deployment, for the `deployment_events` test's sample (the project's latest). */
export class Migration20261127004500_deployment_copies extends Migration {
  override name = 'Migration20261127004500_deployment_copies';

  override up(): void {
    this.addSql(`create table deployment_copies (
      id bigint primary key,
      project_id bigint not null,
      facts jsonb not null
    )`);
    this.addSql('create index deployment_copies_project_idx on deployment_copies (project_id, id)');
  }
}
