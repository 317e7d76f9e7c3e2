import { Migration } from '@platform/db';

export class Migration20261122210000_protected_branches extends Migration {
  override name = 'Migration20261122210000_protected_branches';

  override up(): void {
    this.addSql(`create table protected_branches (
      id bigserial primary key,
      project_id bigint not null,
      name text not null,
      allow_force_push boolean not null default false,
      code_owner_approval_required boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (project_id, name)
    )`);
    this.addSql(`create table protected_branch_access_levels (
      id bigserial primary key,
      protected_branch_id bigint not null references protected_branches (id) on delete cascade,
      action text not null check (action in ('push', 'merge', 'unprotect')),
      access_level integer not null
    )`);
    this.addSql('create index protected_branch_access_levels_branch on protected_branch_access_levels (protected_branch_id)');
  }
}
