import { sql, type Kysely } from 'kysely';
import { bigintNumber, isoTimestamp, readPage, selectList, type Page, type PageWindow } from '@platform/db';
import type { CommitStatus } from './commit-status.entity.ts';

/** A commit status as its view shows it. */
export type ListedCommitStatus = Pick<
  CommitStatus,
  | 'id'
  | 'pipelineId'
  | 'sha'
  | 'ref'
  | 'name'
  | 'stage'
  | 'status'
  | 'description'
  | 'targetUrl'
  | 'coverage'
  | 'allowFailure'
  | 'userId'
  | 'userUsername'
  | 'userName'
> & { createdAt: string; startedAt: string | null; finishedAt: string | null };

export interface CommitStatusFilter {
  ref?: string | undefined;
  stage?: string | undefined;
  name?: string | undefined;
  pipelineId?: number | undefined;
  /** Retried statuses too. */
  all: boolean;
}

export const COMMIT_STATUS_ORDERS = ['id', 'pipeline_id'] as const;
export interface CommitStatusOrder {
  by: (typeof COMMIT_STATUS_ORDERS)[number];
  sort: 'asc' | 'desc';
}

const COLUMNS: Record<keyof ListedCommitStatus, string> = {
  id: bigintNumber('s.id'),
  pipelineId: bigintNumber('s.pipeline_id'),
  sha: 's.sha',
  ref: 's.ref',
  name: 's.name',
  stage: 's.stage',
  status: 's.status',
  description: 's.description',
  targetUrl: 's.target_url',
  coverage: 's.coverage',
  allowFailure: 's.allow_failure',
  userId: 's.user_id',
  userUsername: 's.user_username',
  userName: 's.user_name',
  createdAt: isoTimestamp('s.created_at'),
  startedAt: isoTimestamp('s.started_at'),
  finishedAt: isoTimestamp('s.finished_at'),
};

/** A commit's statuses, read in one statement per page without entities. */
export class CommitStatusesReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  list(
    projectId: number,
    options: { sha: string; filter: CommitStatusFilter; order: CommitStatusOrder; window: PageWindow },
  ): Promise<Page<ListedCommitStatus>> {
    const { filter } = options;
    const where = sql`s.project_id = ${projectId} and s.sha = ${options.sha}
      ${filter.all ? sql`` : sql`and not s.retried`}
      ${filter.ref === undefined ? sql`` : sql`and s.ref = ${filter.ref}`}
      ${filter.stage === undefined ? sql`` : sql`and s.stage = ${filter.stage}`}
      ${filter.name === undefined ? sql`` : sql`and s.name = ${filter.name}`}
      ${filter.pipelineId === undefined ? sql`` : sql`and s.pipeline_id = ${filter.pipelineId}`}`;
    const direction = sql.raw(options.order.sort === 'desc' ? 'desc' : 'asc');
    const order = options.order.by === 'pipeline_id' ? sql`s.pipeline_id ${direction}, s.id ${direction}` : sql`s.id ${direction}`;
    return readPage<ListedCommitStatus>(this.#db, {
      matching: sql`select 1 from commit_statuses s where ${where}`,
      rows: sql`select ${sql.raw(selectList(COLUMNS))} from commit_statuses s where ${where} order by ${order}`,
      window: options.window,
    });
  }
}
