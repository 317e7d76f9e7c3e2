import { Migration } from '@platform/db';

export class Migration20261124140000_ci_variables extends Migration {
  override name = 'Migration20261124140000_ci_variables';

  override up(): void {
    this.addSql(`create table ci_variables (
      id bigserial primary key,
      key text not null unique,
      encrypted_value text not null,
      variable_type text not null default 'env_var' check (variable_type in ('env_var', 'file')),
      protected boolean not null default false,
      masked boolean not null default false,
      raw boolean not null default false,
      description text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
  }
}
