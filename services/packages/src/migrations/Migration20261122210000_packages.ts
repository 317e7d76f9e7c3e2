import { Migration } from '@platform/db';

export class Migration20261122210000_packages extends Migration {
  override name = 'Migration20261122210000_packages';

  override up(): void {
    this.addSql(`create table packages (
      id bigserial primary key,
      project_id bigint not null,
      project_path text not null,
      namespace_ids jsonb not null,
      name text not null,
      version text,
      package_type text not null check (package_type in ('npm', 'maven')),
      status text not null default 'default' check (status in ('default', 'hidden', 'processing', 'error')),
      metadata jsonb,
      creator_id integer,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    // One package per name and version in a project and format; Maven's version-less metadata package too.
    this.addSql("create unique index packages_identity_idx on packages (project_id, package_type, name, coalesce(version, ''))");
    this.addSql('create index packages_project_created_idx on packages (project_id, created_at, id)');
    this.addSql('create index packages_project_name_idx on packages (project_id, name)');
    this.addSql('create index packages_namespace_ids_idx on packages using gin (namespace_ids jsonb_path_ops)');
    this.addSql(`create table package_files (
      id bigserial primary key,
      package_id bigint not null references packages (id) on delete cascade,
      file_name text not null,
      size bigint not null,
      file_md5 text not null,
      file_sha1 text not null,
      file_sha256 text not null,
      storage_path text not null unique,
      created_at timestamptz not null
    )`);
    this.addSql('create index package_files_package_idx on package_files (package_id, id)');
    this.addSql('create unique index package_files_name_idx on package_files (package_id, file_name)');
    this.addSql(`create table package_tags (
      id bigserial primary key,
      package_id bigint not null references packages (id) on delete cascade,
      project_id bigint not null,
      package_name text not null,
      name text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index package_tags_name_idx on package_tags (project_id, package_name, name)');
    this.addSql('create index package_tags_package_idx on package_tags (package_id)');
  }
}
