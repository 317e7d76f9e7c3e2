import { Migration } from '@platform/db';

/** The rest of the Users area: list indexes, paid limits, custom attributes, SSH and GPG keys, statuses. */
export class Migration20261122000300_users_area extends Migration {
  override name = 'Migration20261122000300_users_area';

  override up(): void {
    // Paid tiers: null inherits the instance default, 0 is unlimited.
    this.addSql('alter table users add column shared_runners_minutes_limit integer null');
    this.addSql('alter table users add column extra_shared_runners_minutes_limit integer null');
    // GET /users filters on these and sorts by name, username and updated_at.
    this.addSql('create index users_state_idx on users (state)');
    this.addSql('create index users_user_type_idx on users (user_type)');
    this.addSql('create index users_name_idx on users (name)');
    this.addSql('create index users_username_idx on users (username)');
    this.addSql('create index users_updated_at_idx on users (updated_at)');
    this.addSql('create index users_email_idx on users (email)');
    this.addSql('create index users_public_email_lower_idx on users (lower(public_email))');
    this.addSql('create index identities_lower_extern_uid_idx on identities (provider, lower(extern_uid))');

    this.addSql(`create table user_custom_attributes (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      key text not null,
      value text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index user_custom_attributes_user_id_key_key on user_custom_attributes (user_id, key)');
    this.addSql('create index user_custom_attributes_key_value_idx on user_custom_attributes (key, value)');

    this.addSql(`create table ssh_keys (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      title text not null,
      key text not null,
      fingerprint_md5 text not null,
      fingerprint_sha256 text not null,
      usage_type text not null default 'auth_and_signing' check (usage_type in ('auth', 'signing', 'auth_and_signing')),
      expires_at timestamptz null,
      last_used_at timestamptz null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    // A key authenticates one user only: its fingerprint is unique across the instance.
    this.addSql('create unique index ssh_keys_fingerprint_sha256_key on ssh_keys (fingerprint_sha256)');
    this.addSql('create index ssh_keys_user_id_idx on ssh_keys (user_id)');

    this.addSql(`create table gpg_keys (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      key text not null,
      primary_keyid text not null,
      fingerprint text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index gpg_keys_fingerprint_key on gpg_keys (fingerprint)');
    this.addSql('create index gpg_keys_user_id_idx on gpg_keys (user_id)');

    this.addSql(`create table user_statuses (
      user_id integer primary key references users (id) on delete cascade,
      emoji text not null default 'speech_balloon',
      message text null,
      availability text not null default 'not_set' check (availability in ('not_set', 'busy')),
      clear_status_at timestamptz null,
      updated_at timestamptz not null default now()
    )`);
  }
}
