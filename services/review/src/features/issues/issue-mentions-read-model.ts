import { sql, type Kysely } from 'kysely';

/** A merge request's text that may mention an issue: its title and description, or one of its comments. */
export interface MergeRequestText {
  id: number;
  iid: number;
  text: string;
}

/** A merge request, by id, and its project. */
export interface MergeRequestOfProject {
  id: number;
  projectId: number;
}

/**
 * What mentions what between issues and merge requests: the cross-reference notes of mentions
 * across projects, and a project's texts read for GitLab's reference parsing (mentions written
 * before review kept cross-reference notes have none).
 */
export class IssueMentionsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /**
   * The texts of the project's merge requests (titles with descriptions, and comments) that may
   * mention issue `issueIid`: those holding `#<iid>` or `/-/issues/<iid>`, which parsing confirms.
   */
  async mergeRequestTextsNaming(options: { projectId: number; issueIid: number }): Promise<MergeRequestText[]> {
    const short = `#${options.issueIid}`;
    const address = `/-/issues/${options.issueIid}`;
    const naming = (column: string) => sql`(strpos(${sql.raw(column)}, ${short}) > 0 or strpos(${sql.raw(column)}, ${address}) > 0)`;
    const { rows } = await sql<MergeRequestText>`
      select mr.id::float8 as id, mr.iid, mr.title || E'\n' || coalesce(mr.description, '') as text
        from merge_requests mr
        where mr.project_id = ${options.projectId} and (${naming('mr.title')} or ${naming('mr.description')})
      union all
      select mr.id::float8 as id, mr.iid, n.body as text
        from notes n join merge_requests mr on mr.id = n.merge_request_id
        where mr.project_id = ${options.projectId} and not n.system and ${naming('n.body')}`.execute(this.#db);
    return rows;
  }

  /** The ids of the project's merge requests of these iids. */
  async mergeRequestIds(options: { projectId: number; iids: number[] }): Promise<number[]> {
    if (options.iids.length === 0) return [];
    const { rows } = await sql<{ id: number }>`
      select id::float8 as id from merge_requests
        where project_id = ${options.projectId} and iid = any(${`{${options.iids.join(',')}}`}::int[])`.execute(this.#db);
    return rows.map((row) => row.id);
  }

  /** The merge requests, of any project, that mentioned the issue: those its cross-reference notes name. */
  async mergeRequestsMentioning(issueId: number): Promise<MergeRequestOfProject[]> {
    const { rows } = await sql<MergeRequestOfProject>`
      select mr.id::float8 as id, mr.project_id::float8 as "projectId"
        from notes n join merge_requests mr on mr.id = n.mentioned_in_id
        where n.noteable_type = 'Issue' and n.noteable_id = ${issueId} and n.mentioned_in_type = 'MergeRequest'`.execute(this.#db);
    return rows;
  }

  /** The bodies of the comments on an issue, where it may mention merge requests. */
  async issueCommentBodies(issueId: number): Promise<string[]> {
    const { rows } = await sql<{ body: string }>`select n.body from notes n where n.issue_id = ${issueId} and not n.system`.execute(
      this.#db,
    );
    return rows.map((row) => row.body);
  }
}
