import { Migration } from '@platform/db';

export class Migration20261122000500_saml_providers_and_scim extends Migration {
  override name = 'Migration20261122000500_saml_providers_and_scim';

  override up(): void {
    // A group's single sign-on configuration; its id is the `saml_provider_id` of `group_saml` identities.
    this.addSql(`create table saml_providers (
      id serial primary key,
      group_id integer not null references namespaces (id) on delete cascade,
      enabled boolean not null,
      sso_url text not null,
      certificate_fingerprint text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index saml_providers_group_id_key on saml_providers (group_id)');

    // At most one SCIM token per group; only its SHA-256 digest is kept.
    this.addSql(`create table scim_tokens (
      id serial primary key,
      group_id integer not null references namespaces (id) on delete cascade,
      token_digest text not null,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create unique index scim_tokens_group_id_key on scim_tokens (group_id)');

    // What the identity provider provisioned in a group. It outlives a deactivation (active = false),
    // when the `group_saml` identity itself is removed, so that reactivation can re-create it.
    this.addSql(`create table scim_identities (
      id serial primary key,
      group_id integer not null references namespaces (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      extern_uid text not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    // Identity providers treat externalId case-insensitively, as GitLab does.
    this.addSql('create unique index scim_identities_group_id_extern_uid_key on scim_identities (group_id, lower(extern_uid))');
    this.addSql('create unique index scim_identities_group_id_user_id_key on scim_identities (group_id, user_id)');
    this.addSql('create index scim_identities_user_id_idx on scim_identities (user_id)');

    // A group's SAML identities go with its SAML provider, and so with the group.
    this.addSql(
      'alter table identities add constraint identities_saml_provider_id_fkey foreign key (saml_provider_id) references saml_providers (id) on delete cascade',
    );
    this.addSql('create index identities_saml_provider_id_idx on identities (saml_provider_id)');

    // An external UID is unique per identity provider, and every group's SAML provider is its own:
    // two groups fed by one directory may provision the same UID. The index keeps its name, which
    // the users store maps to its conflict message.
    this.addSql('drop index identities_provider_extern_uid_key');
    this.addSql(
      'create unique index identities_provider_extern_uid_key on identities (provider, extern_uid, saml_provider_id) nulls not distinct',
    );
  }
}
