import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import type { EntityManager } from '@platform/db';
import { Pipeline } from '../pipelines/pipeline.entity.ts';
import { CommitStatus } from './commit-status.entity.ts';

export type NewPipeline = Pick<Pipeline, 'projectId' | 'sha' | 'ref' | 'userId' | 'userUsername' | 'userName'>;
export type NewCommitStatus = Pick<
  CommitStatus,
  'projectId' | 'pipelineId' | 'sha' | 'ref' | 'name' | 'userId' | 'userUsername' | 'userName'
>;

/** GitLab's `Gitlab::Git::SHA1_BLANK_SHA`: an external pipeline knows no previous head. */
const BLANK_SHA = '0'.repeat(40);

/** Pipelines and their commit statuses as commit statuses write them; always within the service's transaction. */
export class PgCommitStatusStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** Serialises the statuses posted for one commit of a project until the transaction ends (GitLab's lease on project and sha). */
  async lockCommit(projectId: number, sha: string): Promise<void> {
    await this.#em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`commit_statuses:${projectId}:${sha}`]);
  }

  /** The project's newest pipeline for `sha` (of `ref`, and with id `pipelineId`, when given). */
  newestPipeline(options: {
    projectId: number;
    sha: string;
    ref?: string | undefined;
    pipelineId?: number | undefined;
  }): Promise<Pipeline | null> {
    return this.#em.findOne(
      Pipeline,
      {
        projectId: options.projectId,
        sha: options.sha,
        ...(options.ref === undefined ? {} : { ref: options.ref }),
        ...(options.pipelineId === undefined ? {} : { id: options.pipelineId }),
      },
      { orderBy: { id: 'desc' } },
    );
  }

  /** A new external pipeline, `created`, with the project's next iid. */
  async createPipeline(pipeline: NewPipeline): Promise<Pipeline> {
    const [counter] = await this.#em.execute<Array<{ last_iid: number }>>(
      `insert into pipeline_iids (project_id, last_iid) values (?, 1)
       on conflict (project_id) do update set last_iid = pipeline_iids.last_iid + 1 returning last_iid`,
      [pipeline.projectId],
    );
    const now = new Date();
    const created = this.#em.create(Pipeline, {
      ...pipeline,
      iid: counter!.last_iid,
      tag: false,
      beforeSha: BLANK_SHA,
      source: 'external',
      status: 'created',
      coverage: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
    });
    await this.#em.flush();
    return created;
  }

  /** The pending or running status of this name, ref and user in the pipeline, which a new post updates. */
  openStatus(options: { pipelineId: number; name: string; ref: string; userId: number }): Promise<CommitStatus | null> {
    return this.#em.findOne(
      CommitStatus,
      { ...options, status: { $in: ['pending', 'running'] }, retried: false },
      { orderBy: { id: 'desc' } },
    );
  }

  /** A new status, `created`; the statuses of its name in the pipeline before it are retried (GitLab's `AddJobService`). */
  async addStatus(status: NewCommitStatus): Promise<CommitStatus> {
    await this.#em.nativeUpdate(CommitStatus, { pipelineId: status.pipelineId, name: status.name, retried: false }, { retried: true });
    const added = this.#em.create(CommitStatus, {
      ...status,
      stage: 'external',
      status: 'created',
      description: null,
      targetUrl: null,
      coverage: null,
      allowFailure: false,
      retried: false,
      createdAt: new Date(),
      startedAt: null,
      finishedAt: null,
    });
    await this.#em.flush();
    return added;
  }

  /** The pipeline's statuses that are not retried. */
  latestStatuses(pipelineId: number): Promise<CommitStatus[]> {
    return this.#em.find(CommitStatus, { pipelineId, retried: false }, { orderBy: { id: 'asc' } });
  }

  /** Writes what changed and records the events with it. */
  async save(options: { events: OutgoingEvent[]; actor: EventActor | null }): Promise<void> {
    await this.#em.flush();
    for (const event of options.events) recordEvent(this.#em, { ...event, actor: options.actor });
  }
}
