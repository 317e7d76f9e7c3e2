import { Migration } from '@platform/db';

export class Migration20261124180200_todos extends Migration {
  override name = 'Migration20261124180200_todos';

  override up(): void {
    this.addSql(`create table todos (
      id bigserial primary key,
      user_id bigint not null,
      project_id bigint not null,
      target_type text not null check (target_type in ('MergeRequest')),
      target_id bigint not null references merge_requests (id) on delete cascade,
      author_id bigint not null,
      action text not null check (action in ('assigned', 'mentioned', 'build_failed', 'marked', 'approval_required', 'unmergeable', 'directly_addressed', 'merge_train_removed', 'review_requested', 'member_access_requested', 'review_submitted')),
      state text not null check (state in ('pending', 'done')),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    // A user's to-dos by state, newest first; one pending marked to-do per user and target.
    this.addSql('create index todos_user_state_idx on todos (user_id, state, id)');
    this.addSql(
      "create unique index todos_pending_marked_idx on todos (user_id, target_type, target_id) where state = 'pending' and action = 'marked'",
    );
  }
}
