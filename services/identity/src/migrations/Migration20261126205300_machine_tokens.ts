import { Migration } from '@platform/db';

export class Migration20261126205300_machine_tokens extends Migration {
  override name = 'Migration20261126205300_machine_tokens';

  override up(): void {
    // Impersonation tokens are an administrator's tokens for a user; project and group access tokens
    // are their bot user's, for the project or group named here.
    this.addSql('alter table personal_access_tokens add column description text null');
    this.addSql('alter table personal_access_tokens add column impersonation boolean not null default false');
    this.addSql('alter table personal_access_tokens add column resource_type text null');
    this.addSql('alter table personal_access_tokens add column resource_id integer null');
    // The role the token was given there, shown once its bot is no longer a member (revoked).
    this.addSql('alter table personal_access_tokens add column access_level integer null');
    this.addSql(
      "alter table personal_access_tokens add constraint personal_access_tokens_resource_type_check check (resource_type in ('project', 'group'))",
    );
    this.addSql(
      'create index personal_access_tokens_resource_idx on personal_access_tokens (resource_type, resource_id, id) where resource_type is not null',
    );
  }
}
