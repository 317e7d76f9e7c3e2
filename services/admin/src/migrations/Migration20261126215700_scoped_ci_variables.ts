import { Migration } from '@platform/db';

/** Project and group variables beside the instance's: an owner, and a project variable's environment scope. */
export class Migration20261126215700_scoped_ci_variables extends Migration {
  override name = 'Migration20261126215700_scoped_ci_variables';

  override up(): void {
    this.addSql(`alter table ci_variables
      add column owner_type text not null default 'instance' check (owner_type in ('instance', 'project', 'group')),
      add column owner_id bigint not null default 0,
      add column environment_scope text not null default '*'`);
    this.addSql('alter table ci_variables drop constraint ci_variables_key_key');
    this.addSql('create unique index ci_variables_owner_key_scope on ci_variables (owner_type, owner_id, key, environment_scope)');
    this.addSql('create index ci_variables_owner_id on ci_variables (owner_type, owner_id, id)');
  }
}
