import { Migration } from '@platform/db';

export class Migration20261126211700_group_milestones extends Migration {
  override name = 'Migration20261126211700_group_milestones';

  override up(): void {
    // A milestone is a project's or a group's; a group's is numbered and titled within the group.
    this.addSql('alter table milestones alter column project_id drop not null');
    this.addSql('alter table milestones add column group_id bigint');
    this.addSql('alter table milestones add constraint milestones_one_parent check ((project_id is null) <> (group_id is null))');
    this.addSql('create unique index milestones_group_iid on milestones (group_id, iid) where group_id is not null');
    this.addSql('create unique index milestones_group_title on milestones (group_id, title) where group_id is not null');
  }
}
