import { Migration } from '@platform/db';

export class Migration20261124170400_project_repository_storage extends Migration {
  override name = 'Migration20261124170400_project_repository_storage';

  override up(): void {
    // Review owns repositories; identity keeps the storage its events name, for the administrators' project view.
    this.addSql("alter table projects add column repository_storage text not null default 'default'");
  }
}
