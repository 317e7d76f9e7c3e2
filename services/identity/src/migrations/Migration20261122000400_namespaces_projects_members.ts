import { Migration } from '@platform/db';

const FEATURE_ACCESS_LEVELS = [
  'issues',
  'repository',
  'merge_requests',
  'forking',
  'wiki',
  'builds',
  'snippets',
  'analytics',
  'container_registry',
  'security_and_compliance',
  'releases',
  'environments',
  'feature_flags',
  'infrastructure',
  'monitor',
];

/** Groups and personal namespaces, projects, memberships (with access requests) and sharing. */
export class Migration20261122000400_namespaces_projects_members extends Migration {
  override name = 'Migration20261122000400_namespaces_projects_members';

  override up(): void {
    // Trigram similarity ranks `order_by=similarity` and serves substring search from an index.
    this.addSql('create extension if not exists pg_trgm');

    // GitLab's model: a group is a namespace of kind 'group'; every user owns one of kind 'user'.
    // `traversal_ids` lists the ids from the top-level namespace down to this one, so ancestors
    // and descendants are array containment queries.
    this.addSql(`create table namespaces (
      id serial primary key,
      kind text not null check (kind in ('user', 'group')),
      name text not null,
      path text not null,
      full_path text not null,
      parent_id integer null references namespaces (id) on delete cascade,
      traversal_ids integer[] not null,
      owner_id integer null references users (id) on delete cascade,
      description text not null default '',
      visibility text not null default 'private' check (visibility in ('private', 'internal', 'public')),
      share_with_group_lock boolean not null default false,
      require_two_factor_authentication boolean not null default false,
      two_factor_grace_period integer not null default 48,
      project_creation_level text not null default 'developer' check (project_creation_level in ('noone', 'maintainer', 'developer')),
      subgroup_creation_level text not null default 'maintainer' check (subgroup_creation_level in ('owner', 'maintainer')),
      auto_devops_enabled boolean null,
      emails_disabled boolean not null default false,
      mentions_disabled boolean not null default false,
      lfs_enabled boolean not null default true,
      default_branch_protection integer not null default 2 check (default_branch_protection between 0 and 4),
      request_access_enabled boolean not null default true,
      avatar_url text null,
      file_template_project_id integer null,
      runners_token text null,
      storage_size bigint not null default 0,
      repository_size bigint not null default 0,
      wiki_size bigint not null default 0,
      lfs_objects_size bigint not null default 0,
      job_artifacts_size bigint not null default 0,
      packages_size bigint not null default 0,
      snippets_size bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((kind = 'user') = (owner_id is not null)),
      check ((kind = 'user') <= (parent_id is null))
    )`);
    // Users and top-level groups share one path space, case-insensitively, as in GitLab.
    this.addSql('create unique index namespaces_full_path_lower_key on namespaces (lower(full_path))');
    this.addSql("create unique index namespaces_owner_id_key on namespaces (owner_id) where kind = 'user'");
    this.addSql('create index namespaces_parent_id_idx on namespaces (parent_id)');
    this.addSql('create index namespaces_traversal_ids_idx on namespaces using gin (traversal_ids)');
    this.addSql('create index namespaces_name_lower_idx on namespaces (lower(name), id)');
    this.addSql('create index namespaces_path_lower_idx on namespaces (lower(path), id)');
    this.addSql('create index namespaces_name_trgm_idx on namespaces using gin (name gin_trgm_ops)');
    this.addSql('create index namespaces_path_trgm_idx on namespaces using gin (path gin_trgm_ops)');

    this.addSql(`create table projects (
      id serial primary key,
      namespace_id integer not null references namespaces (id) on delete cascade,
      name text not null,
      path text not null,
      description text null,
      visibility text not null default 'private' check (visibility in ('private', 'internal', 'public')),
      default_branch text not null default 'main',
      archived boolean not null default false,
      creator_id integer null references users (id) on delete set null,
      topics text[] not null default '{}',
      avatar_url text null,
      request_access_enabled boolean not null default true,
      ${FEATURE_ACCESS_LEVELS.map(
        (feature) =>
          `${feature}_access_level text not null default 'enabled' check (${feature}_access_level in ('disabled', 'private', 'enabled'))`,
      ).join(',\n      ')},
      pages_access_level text not null default 'private' check (pages_access_level in ('disabled', 'private', 'enabled', 'public')),
      shared_runners_enabled boolean not null default true,
      lfs_enabled boolean not null default true,
      packages_enabled boolean not null default true,
      public_jobs boolean not null default true,
      emails_disabled boolean not null default false,
      resolve_outdated_diff_discussions boolean not null default false,
      only_allow_merge_if_pipeline_succeeds boolean not null default false,
      only_allow_merge_if_all_discussions_are_resolved boolean not null default false,
      remove_source_branch_after_merge boolean not null default true,
      printing_merge_request_link_enabled boolean not null default true,
      merge_method text not null default 'merge' check (merge_method in ('merge', 'rebase_merge', 'ff')),
      squash_option text not null default 'default_off' check (squash_option in ('never', 'always', 'default_on', 'default_off')),
      ci_config_path text null,
      container_expiration_policy_cadence text not null default '1d',
      container_expiration_policy_enabled boolean not null default false,
      container_expiration_policy_keep_n integer null default 10,
      container_expiration_policy_older_than text null default '90d',
      container_expiration_policy_name_regex text null default '.*',
      container_expiration_policy_name_regex_keep text null,
      container_expiration_policy_next_run_at timestamptz null,
      last_activity_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index projects_namespace_id_path_lower_key on projects (namespace_id, lower(path))');
    this.addSql('create unique index projects_namespace_id_name_lower_key on projects (namespace_id, lower(name))');
    this.addSql('create index projects_created_at_idx on projects (created_at, id)');
    this.addSql('create index projects_updated_at_idx on projects (updated_at, id)');
    this.addSql('create index projects_last_activity_at_idx on projects (last_activity_at, id)');
    this.addSql('create index projects_name_lower_idx on projects (lower(name), id)');
    this.addSql('create index projects_path_lower_idx on projects (lower(path), id)');
    this.addSql('create index projects_visibility_idx on projects (visibility)');
    this.addSql('create index projects_creator_id_idx on projects (creator_id)');
    this.addSql('create index projects_topics_idx on projects using gin (topics)');
    this.addSql('create index projects_name_trgm_idx on projects using gin (name gin_trgm_ops)');
    this.addSql('create index projects_path_trgm_idx on projects using gin (path gin_trgm_ops)');
    this.addSql('create index projects_description_trgm_idx on projects using gin (description gin_trgm_ops)');

    // Memberships of groups and projects. A row with `requested_at` set is a pending access
    // request, not a membership, as GitLab models it.
    this.addSql(`create table members (
      id serial primary key,
      source_type text not null check (source_type in ('Group', 'Project')),
      source_id integer not null,
      user_id integer not null references users (id) on delete cascade,
      access_level integer not null check (access_level in (10, 20, 30, 40, 50)),
      expires_at date null,
      requested_at timestamptz null,
      created_by integer null references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index members_source_type_source_id_user_id_key on members (source_type, source_id, user_id)');
    this.addSql('create index members_user_id_idx on members (user_id, source_type)');
    this.addSql('create index members_source_idx on members (source_type, source_id, access_level)');

    this.addSql(`create table project_group_links (
      id serial primary key,
      project_id integer not null references projects (id) on delete cascade,
      group_id integer not null references namespaces (id) on delete cascade,
      group_access integer not null check (group_access in (10, 20, 30, 40, 50)),
      expires_at date null,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create unique index project_group_links_project_id_group_id_key on project_group_links (project_id, group_id)');
    this.addSql('create index project_group_links_group_id_idx on project_group_links (group_id)');

    this.addSql(`create table group_group_links (
      id serial primary key,
      shared_group_id integer not null references namespaces (id) on delete cascade,
      shared_with_group_id integer not null references namespaces (id) on delete cascade,
      group_access integer not null check (group_access in (10, 20, 30, 40, 50)),
      expires_at date null,
      created_at timestamptz not null default now(),
      check (shared_group_id <> shared_with_group_id)
    )`);
    this.addSql(
      'create unique index group_group_links_shared_group_id_shared_with_group_id_key on group_group_links (shared_group_id, shared_with_group_id)',
    );
    this.addSql('create index group_group_links_shared_with_group_id_idx on group_group_links (shared_with_group_id)');

    this.addSql(`create table project_stars (
      user_id integer not null references users (id) on delete cascade,
      project_id integer not null references projects (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (user_id, project_id)
    )`);
    this.addSql('create index project_stars_project_id_idx on project_stars (project_id)');

    for (const [table, owner, ownerTable] of [
      ['group_custom_attributes', 'group_id', 'namespaces'],
      ['project_custom_attributes', 'project_id', 'projects'],
    ] as const) {
      this.addSql(`create table ${table} (
        id serial primary key,
        ${owner} integer not null references ${ownerTable} (id) on delete cascade,
        key text not null,
        value text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
      this.addSql(`create unique index ${table}_${owner}_key_key on ${table} (${owner}, key)`);
      this.addSql(`create index ${table}_key_value_idx on ${table} (key, value)`);
    }

    // Every user owns a personal namespace named after them, whoever creates or renames the user
    // (the users API, SCIM, the bootstrap administrator): the database keeps the two in step.
    this.addSql(`create function create_user_namespace() returns trigger language plpgsql as $$
      declare
        new_id integer := nextval('namespaces_id_seq');
      begin
        insert into namespaces (id, kind, name, path, full_path, traversal_ids, owner_id, visibility)
        values (new_id, 'user', new.name, new.username, new.username, array[new_id], new.id, 'public');
        return null;
      end $$`);
    this.addSql('create trigger users_create_namespace after insert on users for each row execute function create_user_namespace()');
    this.addSql(`create function rename_user_namespace() returns trigger language plpgsql as $$
      begin
        update namespaces set name = new.name, path = new.username, full_path = new.username, updated_at = now()
        where owner_id = new.id and kind = 'user';
        return null;
      end $$`);
    this.addSql(`create trigger users_rename_namespace after update of username, name on users for each row
      when (old.username is distinct from new.username or old.name is distinct from new.name)
      execute function rename_user_namespace()`);
    this.addSql(`insert into namespaces (kind, name, path, full_path, traversal_ids, owner_id, visibility)
      select 'user', name, username, username, '{}', id, 'public' from users order by id`);
    this.addSql("update namespaces set traversal_ids = array[id] where kind = 'user'");
  }
}
