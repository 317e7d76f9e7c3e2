import { Migration } from '@platform/db';

export class Migration20261126211500_user_emails extends Migration {
  override name = 'Migration20261126211500_user_emails';

  override up(): void {
    // Users' secondary emails (GitLab's `emails`): confirmed ones identify commit authors as the primary email does.
    this.addSql(`create table emails (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      email text not null,
      confirmed_at timestamptz null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index emails_email_key on emails (lower(email))');
    this.addSql('create index emails_user_id_index on emails (user_id, id)');
  }
}
