import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import { deliveryEvents } from '@platform/delivery-client';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import type { BranchUpdates, ProjectCommits } from '@platform/review-client';
import { FINISHED_STATUSES, type CiStatus, type Pipeline } from '../pipelines/pipeline.entity.ts';
import { pipelineEventData } from '../pipelines/pipeline-events.ts';
import type { CommitStatus } from './commit-status.entity.ts';
import { compositeStatus, transition, type PostedState } from './commit-status-transitions.ts';
import type { PgCommitStatusStore } from './commit-statuses-store.ts';
import type { CommitStatusFilter, CommitStatusOrder, CommitStatusesReadModel, ListedCommitStatus } from './commit-statuses-read-model.ts';

export interface PostedStatus {
  sha: string;
  state: PostedState;
  ref?: string | undefined;
  name?: string | undefined;
  targetUrl?: string | undefined;
  description?: string | undefined;
  coverage?: number | undefined;
  pipelineId?: number | undefined;
}

/** The average of the coverages reported, two decimals, as GitLab's pipeline `coverage`; null when none was. */
function coverageOf(statuses: CommitStatus[]): string | null {
  const reported = statuses.flatMap((status) =>
    status.coverage === null || status.coverage === undefined ? [] : [Number(status.coverage)],
  );
  if (reported.length === 0) return null;
  return (reported.reduce((sum, coverage) => sum + coverage, 0) / reported.length).toFixed(2);
}

/** GitLab's commit status API: external CI systems report the state of their jobs for a commit, which form a pipeline. */
export class CommitStatusesService {
  readonly #em: EntityManager;
  readonly #store: PgCommitStatusStore;
  readonly #readModel: CommitStatusesReadModel;
  readonly #commits: ProjectCommits;
  readonly #branches: BranchUpdates;

  constructor(deps: {
    em: EntityManager;
    store: PgCommitStatusStore;
    readModel: CommitStatusesReadModel;
    commits: ProjectCommits;
    /** Who may update a protected branch: only they post its statuses. */
    branches: BranchUpdates;
  }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#readModel = deps.readModel;
    this.#commits = deps.commits;
    this.#branches = deps.branches;
  }

  /** The statuses of a commit (only the latest of each name unless `all`); 404 when the sha names no commit. */
  async list(
    project: ProjectAccess,
    options: { caller: AuthenticatedCaller; sha: string; filter: CommitStatusFilter; order: CommitStatusOrder; window: PageWindow },
  ): Promise<Page<ListedCommitStatus>> {
    const [commit] = await this.#commits.resolve({ caller: options.caller, projectId: project.id, revisions: [options.sha] });
    if (!commit) throw new NotFoundError('Commit');
    return this.#readModel.list(project.id, options);
  }

  /**
   * Creates or moves on the status `name` of the commit (GitLab's `Ci::CreateCommitStatusService`):
   * a pending or running status of that name, ref and user in the commit's newest pipeline (for
   * `ref`, `pipelineId` when given) is updated, otherwise a new one is added (retrying older ones of
   * its name), in a new external pipeline when none matches. The ref defaults to the pipeline's, then
   * to the first branch containing the commit. The pipeline's status follows its latest statuses.
   * A caller who may neither push to the ref nor merge into it (a protected branch) is refused (403),
   * as GitLab's `update_pipeline` is on a protected ref.
   */
  async post(project: ProjectAccess, caller: AuthenticatedCaller, posted: PostedStatus): Promise<CommitStatus> {
    const [sha] = await this.#commits.resolve({ caller, projectId: project.id, revisions: [posted.sha] });
    if (!sha) throw new NotFoundError('Commit');
    const matching = { projectId: project.id, sha, ref: posted.ref, pipelineId: posted.pipelineId };
    const known = await this.#store.newestPipeline(matching);
    if (posted.pipelineId !== undefined && !known) throw new NotFoundError('Pipeline for pipeline_id, sha and ref');
    const ref = posted.ref ?? known?.ref ?? (await this.#commits.branchesContaining({ caller, projectId: project.id, sha }))[0];
    if (!ref) throw new NotFoundError('References for commit');
    if (!(await this.#branches.mayUpdate({ caller, projectId: project.id, branch: ref }))) throw new ForbiddenError();
    const name = posted.name ?? 'default';
    return this.#em.transactional(async () => {
      await this.#store.lockCommit(project.id, sha);
      const user = { userId: caller.userId, userUsername: caller.username, userName: caller.name };
      const found = await this.#store.newestPipeline(matching);
      const pipeline = found ?? (await this.#store.createPipeline({ projectId: project.id, sha, ref, ...user }));
      const previous = { status: pipeline.status, coverage: pipeline.coverage };
      const status =
        (await this.#store.openStatus({ pipelineId: pipeline.id, name, ref, userId: caller.userId })) ??
        (await this.#store.addStatus({ projectId: project.id, pipelineId: pipeline.id, sha, ref, name, ...user }));
      if (posted.targetUrl !== undefined) status.targetUrl = posted.targetUrl;
      if (posted.description !== undefined) status.description = posted.description;
      if (posted.coverage !== undefined) status.coverage = posted.coverage;
      const now = new Date();
      status.status = transition(status.status, posted.state);
      if (status.status === 'running') status.startedAt ??= now;
      if (FINISHED_STATUSES.includes(status.status)) status.finishedAt = now;
      this.#follow(pipeline, await this.#store.latestStatuses(pipeline.id), now);
      const changed = !found || pipeline.status !== previous.status || pipeline.coverage !== previous.coverage;
      if (changed && found) pipeline.version += 1;
      const data = () => pipelineEventData(project, pipeline, { previousStatus: found ? previous.status : null });
      await this.#store.save({
        events: !found
          ? [deliveryEvents.pipelineCreated.event({ aggregateId: project.id, data: data() })]
          : changed
            ? [deliveryEvents.pipelineUpdated.event({ aggregateId: project.id, data: data() })]
            : [],
        actor: actorOf(caller),
      });
      return status;
    });
  }

  /** Sets the pipeline's status, coverage and times from its latest statuses. */
  #follow(pipeline: Pipeline, latest: CommitStatus[], now: Date): void {
    const status: CiStatus = compositeStatus(latest.map((each) => each.status));
    const coverage = coverageOf(latest);
    if (status === pipeline.status && coverage === pipeline.coverage) return;
    if (status === 'running' || (FINISHED_STATUSES.includes(status) && pipeline.startedAt === null)) pipeline.startedAt ??= now;
    pipeline.finishedAt = FINISHED_STATUSES.includes(status) ? now : null;
    pipeline.status = status;
    pipeline.coverage = coverage;
    pipeline.updatedAt = now;
  }
}
