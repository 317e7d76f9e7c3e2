import { Migration } from '@platform/db';

export class Migration20261122180000_scim_account_links extends Migration {
  override name = 'Migration20261122180000_scim_account_links';

  override up(): void {
    // Whether the group's identity provider created the user: only then may it change their profile.
    this.addSql('alter table scim_identities add column provisioned_user boolean not null default false');
    // When the user agreed to be linked to the group's identity provider; null while the link waits
    // for them. Links made before links needed agreement count as agreed.
    this.addSql('alter table scim_identities add column link_confirmed_at timestamptz');
    this.addSql('update scim_identities set link_confirmed_at = created_at');
    this.addSql('create index scim_identities_pending_user_id_idx on scim_identities (user_id) where link_confirmed_at is null');
  }
}
