import { Migration } from '@platform/db';

export class Migration20261124172000_project_forks extends Migration {
  override name = 'Migration20261124172000_project_forks';

  override up(): void {
    // A fork outlives its upstream: deleting the upstream unlinks it, as GitLab does.
    this.addSql('alter table projects add column forked_from_project_id integer references projects (id) on delete set null');
    this.addSql('create index projects_forked_from_project_id_index on projects (forked_from_project_id)');
  }
}
