import { Migration } from '@platform/db';

export class Migration20261126213900_pipelines_and_auto_merges extends Migration {
  override name = 'Migration20261126213900_pipelines_and_auto_merges';

  override up(): void {
    // Delivery's external pipelines as its events tell them (the newest version of each): a merge
    // request's head pipeline is the newest of its source branch at its head commit.
    this.addSql(`create table pipelines (
      id bigint primary key,
      project_id bigint not null,
      iid integer not null,
      sha text not null,
      ref text not null,
      tag boolean not null,
      before_sha text not null,
      source text not null,
      status text not null,
      user_id integer not null,
      user_username text not null,
      user_name text not null,
      coverage text null,
      web_url text not null,
      duration integer null,
      version integer not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      started_at timestamptz null,
      finished_at timestamptz null
    )`);
    this.addSql(`create index pipelines_project_ref_sha_idx on pipelines (project_id, ref, sha, id)`);
    // A merge request set to merge when its pipeline succeeds, with who set it and how to merge.
    this.addSql(`create table merge_request_auto_merges (
      merge_request_id bigint primary key references merge_requests (id) on delete cascade,
      merge_user_id bigint not null,
      merge_user_username text not null,
      merge_user_name text not null,
      sha text not null,
      squash boolean null,
      should_remove_source_branch boolean null,
      merge_commit_message text null,
      squash_commit_message text null,
      created_at timestamptz not null
    )`);
  }
}
