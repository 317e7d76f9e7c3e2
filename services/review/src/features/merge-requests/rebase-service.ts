import type { AuthenticatedCaller } from '@platform/auth';
import { ConflictError, ForbiddenError, NotFoundError } from '@platform/errors';
import type { Logger } from '@platform/logger';
import { mayOnBranch } from '../protected-branches/branch-protection.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { BRANCH_PREFIX, branchHead, isFromFork, signatureOf, type MergeRequestScope } from './merge-request-refs.ts';
import { REBASE_ERROR, REBASE_TIMEOUT_MS } from './merge-requests-service.ts';
import type { MergeBranchRules, MergeRepositories } from './merge-service.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';

/** Rebases merge requests' source branches onto their targets (GitLab's `MergeRequests::RebaseService`). */
export class RebaseService {
  readonly #store: MergeRequestStore;
  readonly #repositories: MergeRepositories;
  readonly #protectedBranches: MergeBranchRules;
  readonly #logger: Logger;

  constructor(options: { store: MergeRequestStore; repositories: MergeRepositories; protectedBranches: MergeBranchRules; logger: Logger }) {
    this.#store = options.store;
    this.#repositories = options.repositories;
    this.#protectedBranches = options.protectedBranches;
    this.#logger = options.logger;
  }

  /**
   * Starts rebasing the source branch onto the target in the background, as GitLab's rebase does:
   * 403 for callers who may not push to the source branch, 409 while a rebase runs (or once it is
   * no longer open). Clients poll `rebase_in_progress`; a conflict leaves the branch as it was and
   * sets `merge_error`.
   */
  async rebase(scope: MergeRequestScope, caller: AuthenticatedCaller, iid: number): Promise<void> {
    const { project, repository } = scope;
    const mergeRequest = await this.#store.find(project.id, iid);
    if (!mergeRequest) throw new NotFoundError('Merge Request');
    // The source branch is the fork's: rebasing it is pushing there, which this project's roles do not allow.
    if (isFromFork(mergeRequest)) throw new ForbiddenError('Cannot push to source branch');
    const actor = await this.#protectedBranches.actorOf({
      projectId: project.id,
      userId: caller.userId,
      accessLevel: project.accessLevel,
      isAdmin: project.isAdmin,
    });
    const protections = await this.#protectedBranches.list(project.id);
    // An archived project is read-only: nobody pushes there (GitLab's push_code is prevented).
    if (project.archived || !mayOnBranch({ action: 'push', branch: mergeRequest.sourceBranch, protections, actor })) {
      throw new ForbiddenError('Cannot push to source branch');
    }
    const now = new Date();
    const started = await this.#store.startRebase({ id: mergeRequest.id, now, staleBefore: new Date(now.getTime() - REBASE_TIMEOUT_MS) });
    if (!started) throw new ConflictError('409 Conflict: Resource lock');
    this.#rebaseSource({ repository, caller, mergeRequest, committer: signatureOf(caller, project) }).catch(async (error: unknown) => {
      this.#logger.error({ err: error, mergeRequestId: mergeRequest.id }, 'rebase failed');
      await this.#store.finishRebase({ id: mergeRequest.id, mergeError: REBASE_ERROR });
    });
  }

  /** The background part of a rebase: the source moves to its rebased head unless it moved meanwhile, or conflicts. */
  async #rebaseSource(options: {
    repository: ProjectRepository;
    caller: AuthenticatedCaller;
    mergeRequest: MergeRequest;
    committer: { name: string; email: string };
  }): Promise<void> {
    const { repository, mergeRequest } = options;
    const sourceRef = `${BRANCH_PREFIX}${mergeRequest.sourceBranch}`;
    const sourceHead = await repository.git.resolveCommit(sourceRef);
    const targetHead = await branchHead(repository, mergeRequest.targetBranch);
    if (!sourceHead || !targetHead) {
      await this.#store.finishRebase({ id: mergeRequest.id, mergeError: REBASE_ERROR });
      return;
    }
    const result = await repository.git.rebase({ head: sourceHead, onto: targetHead, committer: options.committer });
    if (!result.rebased) {
      await this.#store.finishRebase({ id: mergeRequest.id, mergeError: REBASE_ERROR });
      return;
    }
    // Recorded as a push by the caller: the merge request gets a new diff version and merge status.
    const moved = await this.#repositories.changeRefs(repository, options.caller, () =>
      result.head === sourceHead ? Promise.resolve(true) : repository.git.updateRef(sourceRef, result.head, sourceHead),
    );
    await this.#store.finishRebase({ id: mergeRequest.id, mergeError: moved ? null : REBASE_ERROR });
  }
}
