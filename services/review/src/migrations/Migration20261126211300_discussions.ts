import { Migration } from '@platform/db';

/**
 * Notes on issues and commits beside merge requests, grouped in discussions (GitLab's
 * `discussion_id`), resolvable on merge requests, and diff notes with their position on a diff
 * version. What a note is on stays cascaded through one generated key per kind.
 */
export class Migration20261126211300_discussions extends Migration {
  override name = 'Migration20261126211300_discussions';

  override up(): void {
    this.addSql('alter table notes drop constraint notes_noteable_id_fkey');
    this.addSql('alter table notes drop constraint notes_noteable_type_check');
    this.addSql(`alter table notes add constraint notes_noteable_type_check check (noteable_type in ('MergeRequest', 'Issue', 'Commit'))`);
    this.addSql('alter table notes alter column noteable_id drop not null');
    this.addSql('alter table notes alter column noteable_iid drop not null');
    this.addSql(`alter table notes
      add column merge_request_id bigint generated always as (case when noteable_type = 'MergeRequest' then noteable_id end) stored
        references merge_requests (id) on delete cascade,
      add column issue_id bigint generated always as (case when noteable_type = 'Issue' then noteable_id end) stored
        references issues (id) on delete cascade,
      add column type text check (type in ('DiscussionNote', 'DiffNote')),
      add column discussion_id text,
      add column commit_id text,
      add column position jsonb,
      add column merge_request_diff_id bigint references merge_request_diffs (id) on delete cascade,
      add column resolvable boolean not null default false,
      add column resolved_at timestamptz,
      add column resolved_by_id bigint`);
    this.addSql(`update notes set discussion_id = md5('note' || id) || substr(md5('discussion' || id), 1, 8)`);
    this.addSql('alter table notes alter column discussion_id set not null');
    this.addSql(`alter table notes add constraint notes_noteable_check check (
      (noteable_type = 'Commit') = (noteable_id is null and commit_id is not null)
    )`);
    this.addSql('create index notes_merge_request_idx on notes (merge_request_id)');
    this.addSql('create index notes_issue_idx on notes (issue_id)');
    this.addSql('create index notes_merge_request_diff_idx on notes (merge_request_diff_id)');
    this.addSql('create index notes_discussion_idx on notes (noteable_id, discussion_id, created_at, id)');
    this.addSql(`create index notes_commit_idx on notes (project_id, commit_id, created_at, id) where noteable_type = 'Commit'`);
  }
}
