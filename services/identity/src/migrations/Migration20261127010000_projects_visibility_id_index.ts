import { Migration } from '@platform/db';

export class Migration20261127010000_projects_visibility_id_index extends Migration {
  override name = 'Migration20261127010000_projects_visibility_id_index';

  override up(): void {
    // A member's capped project count reads the ids of the projects open to them from this index
    // alone (`visibleProjectIds`); the index on visibility alone sent it to the table for each id.
    this.addSql('create index projects_visibility_id_idx on projects (visibility, id)');
    this.addSql('drop index projects_visibility_idx');
  }
}
