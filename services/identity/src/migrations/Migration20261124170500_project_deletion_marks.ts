import { Migration } from '@platform/db';

export class Migration20261124170500_project_deletion_marks extends Migration {
  override name = 'Migration20261124170500_project_deletion_marks';

  override up(): void {
    // Delayed deletion (`deletion_adjourned_period`): when and by whom a project was marked for deletion.
    this.addSql('alter table projects add column marked_for_deletion_at timestamptz null, add column marked_for_deletion_by_id int null');
    this.addSql(
      'create index projects_marked_for_deletion_at_index on projects (marked_for_deletion_at) where marked_for_deletion_at is not null',
    );
  }
}
