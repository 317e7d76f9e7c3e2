import { sql, type Kysely, type RawBuilder } from 'kysely';
import { bigintNumber, isoTimestamp, readPage, selectList, type Page, type PageWindow } from '@platform/db';
import type { ListedPipeline } from './pipelines-views.ts';
import type { PIPELINE_ORDERS, PIPELINE_SCOPES } from './pipelines.schemas.ts';

export interface PipelineFilter {
  scope?: (typeof PIPELINE_SCOPES)[number] | undefined;
  status?: string | undefined;
  ref?: string | undefined;
  sha?: string | undefined;
  /** Only pipelines with YAML errors: none here, as no YAML is read. */
  yamlErrors?: boolean | undefined;
  username?: string | undefined;
  updatedAfter?: Date | undefined;
  updatedBefore?: Date | undefined;
  source?: string | undefined;
}

export interface PipelineOrder {
  by: (typeof PIPELINE_ORDERS)[number];
  sort: 'asc' | 'desc';
}

const COLUMNS: Record<keyof ListedPipeline, string> = {
  id: bigintNumber('p.id'),
  iid: 'p.iid',
  projectId: bigintNumber('p.project_id'),
  sha: 'p.sha',
  ref: 'p.ref',
  tag: 'p.tag',
  beforeSha: 'p.before_sha',
  source: 'p.source',
  status: 'p.status',
  userId: 'p.user_id',
  userUsername: 'p.user_username',
  userName: 'p.user_name',
  coverage: 'p.coverage',
  createdAt: isoTimestamp('p.created_at'),
  updatedAt: isoTimestamp('p.updated_at'),
  startedAt: isoTimestamp('p.started_at'),
  finishedAt: isoTimestamp('p.finished_at'),
};

const ORDER_COLUMNS: Record<PipelineOrder['by'], string> = {
  id: 'p.id',
  status: 'p.status',
  ref: 'p.ref',
  updated_at: 'p.updated_at',
  user_id: 'p.user_id',
};

const FINISHED = ['success', 'failed', 'canceled', 'skipped'];

function conditions(projectId: number, filter: PipelineFilter): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`p.project_id = ${projectId}`];
  if (filter.scope === 'running' || filter.scope === 'pending') parts.push(sql`p.status = ${filter.scope}`);
  if (filter.scope === 'finished') parts.push(sql`p.status = any(${FINISHED})`);
  // GitLab's `branches` and `tags`: the newest pipeline of each branch or tag.
  if (filter.scope === 'branches' || filter.scope === 'tags') {
    parts.push(
      sql`p.tag = ${filter.scope === 'tags'} and p.id = (select max(n.id) from pipelines n where n.project_id = p.project_id and n.ref = p.ref and n.tag = p.tag)`,
    );
  }
  if (filter.status !== undefined) parts.push(sql`p.status = ${filter.status}`);
  if (filter.ref !== undefined) parts.push(sql`p.ref = ${filter.ref}`);
  if (filter.sha !== undefined) parts.push(sql`p.sha = ${filter.sha}`);
  if (filter.yamlErrors) parts.push(sql`false`);
  if (filter.username !== undefined) parts.push(sql`p.user_username = ${filter.username}`);
  if (filter.updatedAfter !== undefined) parts.push(sql`p.updated_at > ${filter.updatedAfter}`);
  if (filter.updatedBefore !== undefined) parts.push(sql`p.updated_at < ${filter.updatedBefore}`);
  if (filter.source !== undefined) parts.push(sql`p.source = ${filter.source}`);
  return sql.join(parts, sql` and `);
}

/** A project's external pipelines, read in one statement per page (or per pipeline) without entities. */
export class PipelinesReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  list(projectId: number, options: { filter: PipelineFilter; order: PipelineOrder; window: PageWindow }): Promise<Page<ListedPipeline>> {
    const where = conditions(projectId, options.filter);
    const direction = sql.raw(options.order.sort === 'asc' ? 'asc' : 'desc');
    const column = sql.raw(ORDER_COLUMNS[options.order.by]);
    const order = options.order.by === 'id' ? sql`p.id ${direction}` : sql`${column} ${direction}, p.id ${direction}`;
    return readPage<ListedPipeline>(this.#db, {
      matching: sql`select 1 from pipelines p where ${where}`,
      rows: sql`select ${sql.raw(selectList(COLUMNS))} from pipelines p where ${where} order by ${order}`,
      window: options.window,
    });
  }

  async get(projectId: number, pipelineId: number): Promise<ListedPipeline | null> {
    const { rows } = await sql<ListedPipeline>`select ${sql.raw(selectList(COLUMNS))} from pipelines p
      where p.project_id = ${projectId} and p.id = ${pipelineId}`.execute(this.#db);
    return rows[0] ?? null;
  }
}
