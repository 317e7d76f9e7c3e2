import { Migration } from '@platform/db';

/**
 * What hook tests send: the latest external pipeline of a project (`pipeline_copies`), the latest
 * merge request and issue (`issuable_copies` by project), and a group's first project with commits
 * (`pushed_projects`).
 */
export class Migration20261127001500_test_samples extends Migration {
  override name = 'Migration20261127001500_test_samples';

  override up(): void {
    this.addSql(`create table pipeline_copies (
      id bigint primary key,
      project_id bigint not null,
      facts jsonb not null
    )`);
    this.addSql('create index pipeline_copies_project_idx on pipeline_copies (project_id, id)');
    this.addSql('create index issuable_copies_project_idx on issuable_copies (project_id, type, id)');
    this.addSql(`create table pushed_projects (
      project_id bigint primary key,
      namespace_id bigint not null
    )`);
    this.addSql('create index pushed_projects_namespace_idx on pushed_projects (namespace_id, project_id)');
  }
}
