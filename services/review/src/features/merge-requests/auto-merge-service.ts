import { ConflictError, DomainError, MethodNotAllowedError, NotAcceptableError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { PipelineChanged } from '@platform/proto/delivery/v1/events';
import { enqueueJob } from '@platform/service';
import type { RefChange } from '../repositories/ref-changes.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { ArmedMergeRequest, PgAutoMergeStore } from './auto-merge-store.ts';
import { autoMergeJob } from './auto-merge.jobs.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { BRANCH_PREFIX, type MergeRequestScope } from './merge-request-refs.ts';
import { mergeRefusal } from './merge-request-state.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';
import type { MergeOptions, MergeService } from './merge-service.ts';

/** A pipeline in these has not finished: a merge may wait for it. */
const ACTIVE_STATUSES = ['created', 'pending', 'running'];

/**
 * Why GitLab's `MergeService` refused a queued merge, as it words the merge error that aborts the
 * automatic merge: a fast-forward project's source behind its target first, then anything else
 * that keeps it from being mergeable (a conflict, missing approvals or pipeline, a draft).
 */
export function mergeErrorOf(
  error: DomainError,
  options: { project: Pick<ProjectAccess, 'mergeMethod'> | null; mergeRequest: MergeRequest },
): string {
  // The user who set it no longer sees the project (null), or may no longer merge into its target.
  if (!options.project || error instanceof UnauthorizedError) return 'You are not allowed to merge this merge request';
  if (error instanceof ConflictError) return 'Branch has been updated since the merge was requested. Please review the changes.';
  const { mergeRequest } = options;
  if (options.project.mergeMethod !== 'merge' && mergeRequest.mergeStatus === 'can_be_merged' && !mergeRequest.fastForwardPossible) {
    return 'Only fast-forward merge is allowed for your project. Please update your source branch';
  }
  return 'Merge request is not mergeable';
}

/** Writes a system note on a merge request by this user (the notes feature's, given by the composition root). */
export type MergeRequestSystemNote = (options: { mergeRequest: MergeRequest; actor: EventActor; body: string }) => Promise<unknown>;

/**
 * GitLab's merge when pipeline succeeds (`AutoMerge::MergeWhenPipelineSucceedsService`): a merge
 * request whose head pipeline still runs is set to merge, and merges as the user who set it once
 * that pipeline succeeds (a job, so that a merge interrupted by a crash runs again); the pipeline
 * failing, a push to the source branch or a cancellation unsets it. Each setting, cancellation and
 * abort is recorded as GitLab's system note (`SystemNotes::MergeRequestsService`).
 */
export class AutoMergeService {
  readonly #em: EntityManager;
  readonly #store: PgAutoMergeStore;
  readonly #mergeRequests: MergeRequestStore;
  readonly #merges: MergeService;
  readonly #access: IdentityAccess;
  readonly #repositories: Pick<RepositoriesService, 'ensure'>;
  readonly #logger: Logger;
  readonly #systemNote: MergeRequestSystemNote;

  constructor(deps: {
    em: EntityManager;
    store: PgAutoMergeStore;
    mergeRequests: MergeRequestStore;
    merges: MergeService;
    access: IdentityAccess;
    repositories: Pick<RepositoriesService, 'ensure'>;
    logger: Logger;
    systemNote: MergeRequestSystemNote;
  }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#mergeRequests = deps.mergeRequests;
    this.#merges = deps.merges;
    this.#access = deps.access;
    this.#repositories = deps.repositories;
    this.#logger = deps.logger;
    this.#systemNote = deps.systemNote;
  }

  /**
   * `PUT .../merge` with `merge_when_pipeline_succeeds` (or `auto_merge`): waits for the head
   * pipeline while it runs; without a running one (none, passed, skipped, failed) it merges now
   * when the merge request may be merged, as GitLab's API falls back to an immediate merge.
   */
  async mergeWhenPipelineSucceeds(
    scope: MergeRequestScope,
    caller: AuthenticatedCaller,
    iid: number,
    options: MergeOptions,
  ): Promise<MergeRequest> {
    const mergeRequest = await this.#mergeRequests.find(scope.project.id, iid);
    if (!mergeRequest) throw new NotFoundError('Merge Request');
    await this.#merges.requireMergeRight(scope, caller, mergeRequest);
    const head = await this.#store.headPipeline(mergeRequest);
    if (!head || !ACTIVE_STATUSES.includes(head.status)) return this.#merges.merge(scope, caller, iid, options);
    if (mergeRefusal(mergeRequest) || !mergeRequest.headSha) throw new MethodNotAllowedError();
    await this.#em.transactional(async () => {
      const newlySet = await this.#store.arm({
        mergeRequestId: mergeRequest.id,
        mergeUserId: caller.userId,
        mergeUserUsername: caller.username,
        mergeUserName: caller.name,
        sha: options.sha ?? mergeRequest.headSha!,
        squash: options.squash ?? null,
        shouldRemoveSourceBranch: options.shouldRemoveSourceBranch ?? null,
        mergeCommitMessage: options.mergeCommitMessage ?? null,
        squashCommitMessage: options.squashCommitMessage ?? null,
      });
      if (newlySet) {
        const body = `enabled an automatic merge when the pipeline for ${head.sha} succeeds`;
        await this.#systemNote({ mergeRequest, actor: actorOf(caller), body });
      }
    });
    return mergeRequest;
  }

  /**
   * `POST .../cancel_merge_when_pipeline_succeeds`: those who may merge it, and its author, unset
   * it (401 for others); 405 once it is merged or closed, 406 when it was not set.
   */
  async cancel(scope: MergeRequestScope, caller: AuthenticatedCaller, iid: number): Promise<MergeRequest> {
    const mergeRequest = await this.#mergeRequests.find(scope.project.id, iid);
    if (!mergeRequest) throw new NotFoundError('Merge Request');
    // GitLab's `can_cancel_auto_merge?`: who may merge it, or its author.
    if (mergeRequest.authorId !== caller.userId) await this.#merges.requireMergeRight(scope, caller, mergeRequest);
    if (mergeRequest.state !== 'opened') throw new MethodNotAllowedError();
    const canceled = await this.#em.transactional(async () => {
      if (!(await this.#store.disarm(mergeRequest.id))) return false;
      await this.#systemNote({ mergeRequest, actor: actorOf(caller), body: 'canceled the automatic merge' });
      return true;
    });
    if (!canceled) throw new NotAcceptableError('Not Acceptable');
    return mergeRequest;
  }

  /**
   * Delivery's pipeline event: keeps the pipeline (unless a newer version is kept) and, once it
   * finished, queues the merge of the merge requests waiting for it at its sha (success) or unsets
   * them (failure, cancellation). Applying the same event twice changes nothing.
   */
  async onPipeline(changed: PipelineChanged): Promise<void> {
    await this.#em.transactional(async (em) => {
      const applied = await this.#store.recordPipeline({
        id: changed.pipelineId,
        projectId: changed.projectId,
        iid: changed.iid,
        sha: changed.sha,
        ref: changed.ref,
        tag: changed.tag,
        beforeSha: changed.beforeSha,
        source: changed.source,
        status: changed.status,
        userId: changed.userId,
        userUsername: changed.userUsername,
        userName: changed.userName,
        coverage: changed.coverage || null,
        webUrl: changed.webUrl,
        duration: changed.duration ?? null,
        version: changed.version,
        createdAt: new Date(changed.createdAt),
        updatedAt: new Date(changed.updatedAt),
        startedAt: changed.startedAt ? new Date(changed.startedAt) : null,
        finishedAt: changed.finishedAt ? new Date(changed.finishedAt) : null,
      });
      if (!applied || ACTIVE_STATUSES.includes(changed.status)) return;
      const waiting = (await this.#store.armedBySource(changed.projectId, [changed.ref])).filter((armed) => armed.headSha === changed.sha);
      for (const armed of waiting) {
        if (changed.status === 'success')
          enqueueJob(em, autoMergeJob, { mergeRequestId: armed.mergeRequestId, pipelineId: changed.pipelineId });
        else await this.#abort(armed, 'pipeline did not succeed');
      }
    });
  }

  /**
   * The queued merge: as the user who set it, when the merge request still waits and its head
   * pipeline succeeded; a refusal (a new push, a conflict, lost rights) unsets it instead of trying again.
   */
  async carryOut(mergeRequestId: number): Promise<void> {
    const autoMerge = await this.#store.autoMergeOf(mergeRequestId);
    if (!autoMerge) return;
    const found = await this.#store.mergeRequest(mergeRequestId);
    if (!found || found.state !== 'opened') return;
    const head = await this.#store.headPipeline(found);
    if (head?.status !== 'success') return;
    const caller: AuthenticatedCaller = {
      kind: 'user',
      userId: autoMerge.mergeUserId,
      username: autoMerge.mergeUserUsername,
      name: autoMerge.mergeUserName,
      isAdmin: false,
      scopes: ['api'],
    };
    let project: ProjectAccess | null = null;
    try {
      project = await this.#access.project({ idOrPath: String(found.projectId), caller });
      const repository = await this.#repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId });
      await this.#merges.merge({ project, repository }, caller, found.iid, {
        sha: autoMerge.sha,
        squash: autoMerge.squash ?? undefined,
        shouldRemoveSourceBranch: autoMerge.shouldRemoveSourceBranch ?? undefined,
        mergeCommitMessage: autoMerge.mergeCommitMessage ?? undefined,
        squashCommitMessage: autoMerge.squashCommitMessage ?? undefined,
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // The merge service kept what it learnt (a conflict, a source behind its target) on the merge request.
      const refused = (await this.#store.mergeRequest(mergeRequestId)) ?? found;
      const reason = mergeErrorOf(error, { project, mergeRequest: refused });
      this.#logger.info({ mergeRequestId, reason }, 'the merge when the pipeline succeeded was refused: unset');
      await this.#em.transactional(() => this.abort({ mergeRequest: refused, actor: actorOf(caller), reason }));
    }
  }

  /** A push moving the source branch of a merge request set to merge away from the sha it was set at unsets it (GitLab's `abort_auto_merges`). */
  async onRefsChanged(projectId: number, changes: RefChange[]): Promise<void> {
    const heads = new Map(
      changes.filter((change) => change.ref.startsWith(BRANCH_PREFIX)).map((change) => [change.ref.slice(BRANCH_PREFIX.length), change]),
    );
    if (heads.size === 0) return;
    for (const armed of await this.#store.armedBySource(projectId, [...heads.keys()])) {
      const change = heads.get(armed.sourceBranch);
      if (change && change.after !== armed.armedSha) await this.#em.transactional(() => this.#abort(armed, 'source branch was updated'));
    }
  }

  /**
   * Unsets it and notes why (GitLab's `AutoMergeService#abort`), in the transaction the caller
   * opened: by `actor`, the user whose change ended it (GitLab's `current_user`), or by the user who
   * set it when the change has no user of its own; nothing when it was not set.
   */
  async abort(options: { mergeRequest: MergeRequest; actor: EventActor | null; reason: string }): Promise<void> {
    const mergeUser = await this.#store.disarm(options.mergeRequest.id);
    if (!mergeUser) return;
    await this.#systemNote({
      mergeRequest: options.mergeRequest,
      actor: options.actor ?? mergeUser,
      body: `aborted the automatic merge because ${options.reason}`,
    });
  }

  /** Unsets it when a pipeline or a push ended it, as the user who set it: the change has no user of its own. */
  async #abort(armed: ArmedMergeRequest, reason: string): Promise<void> {
    const mergeRequest = await this.#store.mergeRequest(armed.mergeRequestId);
    if (mergeRequest) await this.abort({ mergeRequest, actor: null, reason });
  }
}
