import { Migration } from '@platform/db';

/** The closing pattern of closing-references.ts, with `#<iid>` references only, over every merge request's title and description. */
export const BACKFILL_CLOSING_ISSUES = `insert into merge_requests_closing_issues (merge_request_id, issue_id, created_at)
      select distinct mr.id, i.id, now()
        from merge_requests mr
  cross join lateral regexp_matches(
          mr.title || E'\\n' || coalesce(mr.description, ''),
          '(?:^|[^[:alnum:]_])(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?):? +((?:(?:issues? +)?#[0-9]+(?: *,? +and +| *,? *)?)+)',
          'g') as phrase
        cross join lateral regexp_matches(phrase[1], '#([0-9]{1,10})', 'g') as reference
        join issues i on i.project_id = mr.project_id and i.iid::bigint = reference[1]::bigint
      on conflict do nothing`;

/**
 * GitLab's `merge_requests_closing_issues`: the issues each merge request closes, written when it
 * is created, edited or gets new commits, so that an issue's `closed_by` and a merge finding what
 * to close read the issue's or the merge request's entries instead of parsing every merge request
 * of the project. Existing merge requests get theirs from their titles and descriptions: closing
 * phrases naming issues of their own project by `#<iid>` (the form written here so far; commits and
 * other forms are read on their next edit or push).
 */
export class Migration20261127040000_merge_requests_closing_issues extends Migration {
  override name = 'Migration20261127040000_merge_requests_closing_issues';

  override up(): void {
    this.addSql(`create table merge_requests_closing_issues (
      merge_request_id bigint not null references merge_requests (id) on delete cascade,
      issue_id bigint not null references issues (id) on delete cascade,
      created_at timestamptz not null,
      primary key (merge_request_id, issue_id)
    )`);
    this.addSql('create index merge_requests_closing_issues_issue_idx on merge_requests_closing_issues (issue_id)');
    this.addSql(BACKFILL_CLOSING_ISSUES);
  }
}
