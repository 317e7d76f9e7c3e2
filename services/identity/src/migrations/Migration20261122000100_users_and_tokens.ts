import { Migration } from '@platform/db';
import { eventTablesSql } from '@platform/events/database';

export class Migration20261122000100_users_and_tokens extends Migration {
  override name = 'Migration20261122000100_users_and_tokens';

  override up(): void {
    this.addSql(`create table users (
      id serial primary key,
      username text not null,
      email text not null,
      name text not null,
      state text not null default 'active' check (state in ('active', 'blocked')),
      user_type text not null default 'human',
      is_admin boolean not null default false,
      password_hash text null,
      password_expires_at timestamptz null,
      bio text not null default '',
      location text not null default '',
      public_email text null,
      messenger_id text not null default '',
      professional_profile text not null default '',
      social_handle text not null default '',
      website_url text not null default '',
      organization text not null default '',
      job_title text not null default '',
      note text null,
      avatar_url text null,
      projects_limit integer not null default 100000,
      can_create_group boolean not null default true,
      external boolean not null default false,
      private_profile boolean not null default false,
      theme_id integer not null default 1,
      color_scheme_id integer not null default 1,
      two_factor_enabled boolean not null default false,
      confirmed_at timestamptz null,
      sign_in_count integer not null default 0,
      current_sign_in_at timestamptz null,
      last_sign_in_at timestamptz null,
      current_sign_in_ip text null,
      last_sign_in_ip text null,
      last_activity_on date null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    // Usernames and emails are unique regardless of case, as in GitLab.
    this.addSql('create unique index users_username_lower_key on users (lower(username))');
    this.addSql('create unique index users_email_lower_key on users (lower(email))');
    this.addSql('create index users_created_at_idx on users (created_at)');

    this.addSql(`create table identities (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      provider text not null,
      extern_uid text not null,
      saml_provider_id integer null,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create unique index identities_provider_extern_uid_key on identities (provider, extern_uid)');
    this.addSql('create index identities_user_id_idx on identities (user_id)');

    this.addSql(`create table personal_access_tokens (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      name text not null,
      token_digest text not null unique,
      scopes text[] not null,
      expires_at date null,
      revoked boolean not null default false,
      last_used_at timestamptz null,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index personal_access_tokens_user_id_idx on personal_access_tokens (user_id)');

    for (const sql of eventTablesSql) this.addSql(sql);
  }
}
