import { Migration } from '@platform/db';

export class Migration20261124180100_award_emoji extends Migration {
  override name = 'Migration20261124180100_award_emoji';

  override up(): void {
    this.addSql(`create table award_emoji (
      id bigserial primary key,
      name text not null,
      user_id bigint not null,
      awardable_type text not null check (awardable_type in ('MergeRequest')),
      awardable_id bigint not null references merge_requests (id) on delete cascade,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (awardable_type, awardable_id, user_id, name)
    )`);
    // my_reaction_emoji: the merge requests a user reacted to.
    this.addSql('create index award_emoji_user_idx on award_emoji (user_id, awardable_type, name)');
  }
}
