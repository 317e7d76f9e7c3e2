import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import {
  ConflictError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  UnauthorizedError,
  UnprocessableError,
} from '@platform/errors';
import type { EntityManager } from '@platform/db';
import { ACCESS_LEVEL, type ProjectAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { reviewEvents } from '@platform/review-client';
import type { IssuableHistory } from '../core/issuable-history.ts';
import { mayOnBranch } from '../protected-branches/branch-protection.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { ProjectRepository, RepositoriesService } from '../repositories/repositories-service.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { BRANCH_PREFIX, branchHead, isFromFork, signatureOf, sourceHead, type MergeRequestScope } from './merge-request-refs.ts';
import { markMerged, mergeRefusal, mergeRequestEventData } from './merge-request-state.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';

/** Whether a merge request has the approvals it needs to be merged. */
export type ApprovalCheck = (mergeRequest: MergeRequest) => Promise<boolean>;

/** What happens once a merge request was merged (by `caller`), after it was recorded. */
export type MergeListener = (options: {
  mergeRequest: MergeRequest;
  scope: MergeRequestScope;
  caller: AuthenticatedCaller;
}) => Promise<void>;

/** What merging asks of the repositories: moving refs under a repository's lock (recorded as a push), and a fork's repository. */
export type MergeRepositories = Pick<RepositoriesService, 'changeRefs' | 'find'>;

/** The status of a merge request's head pipeline (its source branch's newest at its head commit); null without one. */
export type HeadPipelineStatus = (mergeRequest: MergeRequest) => Promise<string | null>;

/**
 * GitLab's `mergeable_ci_state?` where a pipeline must succeed: the head pipeline succeeded, or was
 * skipped in a project that allows merging then (`allow_merge_on_skipped_pipeline`).
 */
export function headPipelinePassed(status: string | null, project: Pick<ProjectAccess, 'allowMergeOnSkippedPipeline'>): boolean {
  return status === 'success' || (status === 'skipped' && project.allowMergeOnSkippedPipeline);
}

/** Whether no resolvable thread on the merge request is open. */
export type DiscussionsResolved = (mergeRequest: MergeRequest) => Promise<boolean>;

/** What merging asks of protected branches: who may merge into the target. */
export type MergeBranchRules = Pick<ProtectedBranchesService, 'list' | 'actorOf'>;

export interface MergeOptions {
  sha?: string | undefined;
  /** Whether the merging user may push to a fork's source branch: only then does the merge remove it (GitLab's `can_remove_source_branch?`). */
  mayPushToForkSource?: boolean | undefined;
  squash?: boolean | undefined;
  shouldRemoveSourceBranch?: boolean | undefined;
  mergeCommitMessage?: string | undefined;
  squashCommitMessage?: string | undefined;
}

/** Merges merge requests by the project's merge method (GitLab's `MergeRequests::MergeService`). */
export class MergeService {
  readonly #em: EntityManager;
  readonly #store: MergeRequestStore;
  readonly #history: IssuableHistory;
  readonly #repositories: MergeRepositories;
  readonly #protectedBranches: MergeBranchRules;
  readonly #isApproved: ApprovalCheck;
  readonly #headPipelineStatus: HeadPipelineStatus;
  readonly #discussionsResolved: DiscussionsResolved;
  readonly #afterMerge: MergeListener[];
  readonly #logger: Logger;

  constructor(options: {
    em: EntityManager;
    store: MergeRequestStore;
    /** Where the merge is written as a state event and its system note. */
    history: IssuableHistory;
    repositories: MergeRepositories;
    protectedBranches: MergeBranchRules;
    /** Merging waits for the approvals this asks for. */
    isApproved: ApprovalCheck;
    /** What `only_allow_merge_if_pipeline_succeeds` waits for. */
    headPipelineStatus: HeadPipelineStatus;
    /** What `only_allow_merge_if_all_discussions_are_resolved` waits for. */
    discussionsResolved: DiscussionsResolved;
    /** Told of every merge, in order, after it was recorded. */
    afterMerge: MergeListener[];
    logger: Logger;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#history = options.history;
    this.#repositories = options.repositories;
    this.#protectedBranches = options.protectedBranches;
    this.#isApproved = options.isApproved;
    this.#headPipelineStatus = options.headPipelineStatus;
    this.#discussionsResolved = options.discussionsResolved;
    this.#afterMerge = options.afterMerge;
    this.#logger = options.logger;
  }

  /**
   * Merges as the project's merge method says: `merge` writes a merge commit whose parents are the
   * target's head and the source's head (or, with squash, one commit of the source's changes on
   * the merge base), written with `git merge-tree`; `rebase_merge` does the same once the source
   * contains the target's head; `ff` moves the target to the source (or its squash commit) without
   * a merge commit, refused (406) like GitLab while the source is behind. The target moves under
   * the repository's lock, so that a push in between is never lost.
   */
  async merge(scope: MergeRequestScope, caller: AuthenticatedCaller, iid: number, options: MergeOptions): Promise<MergeRequest> {
    const { project, repository } = scope;
    const mergeRequest = await this.#store.find(project.id, iid);
    if (!mergeRequest) throw new NotFoundError('Merge Request');
    await this.requireMergeRight(scope, caller, mergeRequest);
    const refusal = mergeRefusal(mergeRequest);
    if (refusal) throw refusal;
    // GitLab's `mergeable?` is false while approvals are missing: the same refusal.
    if (!(await this.#isApproved(mergeRequest))) throw new MethodNotAllowedError();
    // And while the head pipeline has not passed, when the project only merges after it did (`mergeable_ci_state?`).
    if (project.onlyAllowMergeIfPipelineSucceeds && !headPipelinePassed(await this.#headPipelineStatus(mergeRequest), project)) {
      throw new MethodNotAllowedError();
    }
    // And while a resolvable thread is open, when the project asks for every one resolved (`mergeable_discussions_state?`).
    if (project.onlyAllowMergeIfAllDiscussionsAreResolved && !(await this.#discussionsResolved(mergeRequest))) {
      throw new MethodNotAllowedError();
    }
    const merged = await this.#repositories.changeRefs(repository, caller, async () => {
      const source = await sourceHead({ repositories: this.#repositories, target: repository, mergeRequest });
      const targetHead = await branchHead(repository, mergeRequest.targetBranch);
      if (!source || !targetHead) throw new UnprocessableError('Branch cannot be merged');
      if (options.sha !== undefined && options.sha !== source) {
        throw new ConflictError('SHA does not match HEAD of source branch');
      }
      const trial = await repository.git.trialMerge(targetHead, source);
      const fastForwardPossible = await repository.git.isAncestor(targetHead, source);
      if (!trial.clean || (project.mergeMethod !== 'merge' && !fastForwardPossible)) {
        mergeRequest.mergeStatus = trial.clean ? 'can_be_merged' : 'cannot_be_merged';
        mergeRequest.fastForwardPossible = fastForwardPossible;
        return null;
      }
      const author = signatureOf(caller, project);
      const squash = options.squash ?? mergeRequest.squash;
      let mergedHead = source;
      if (squash) {
        const base = (await repository.git.mergeBase(targetHead, source)) ?? targetHead;
        const message = options.squashCommitMessage ?? mergeRequest.title;
        mergedHead = await repository.git.commitTree({ tree: await repository.git.treeOf(source), parents: [base], message, author });
        mergeRequest.squashCommitSha = mergedHead;
      }
      let newTargetHead = mergedHead;
      // Fast-forward only: the target becomes the source (or its squash commit), no merge commit.
      if (project.mergeMethod !== 'ff') {
        const squashedTrial = squash ? await repository.git.trialMerge(targetHead, mergedHead) : trial;
        if (!squashedTrial.clean) throw new NotAcceptableError('Branch cannot be merged');
        const message =
          options.mergeCommitMessage ??
          [
            `Merge branch '${mergeRequest.sourceBranch}' into '${mergeRequest.targetBranch}'`,
            mergeRequest.title,
            ...(mergeRequest.description ? [mergeRequest.description] : []),
            `See merge request ${project.pathWithNamespace}!${mergeRequest.iid}`,
          ].join('\n\n');
        newTargetHead = await repository.git.commitTree({ tree: squashedTrial.tree, parents: [targetHead, mergedHead], message, author });
      }
      if (!(await repository.git.updateRef(`${BRANCH_PREFIX}${mergeRequest.targetBranch}`, newTargetHead, targetHead))) {
        throw new UnprocessableError('Branch cannot be merged');
      }
      const removeSource = options.shouldRemoveSourceBranch ?? mergeRequest.forceRemoveSourceBranch;
      if (removeSource && !isFromFork(mergeRequest)) await repository.git.deleteRef(`${BRANCH_PREFIX}${mergeRequest.sourceBranch}`, source);
      const at = new Date();
      markMerged(mergeRequest, {
        mergedById: caller.userId,
        at,
        headSha: source,
        // GitLab records no merge commit for a fast-forward: the target's head is the source's own commit.
        mergeCommitSha: project.mergeMethod === 'ff' ? null : newTargetHead,
      });
      // In the transaction that holds the repository's lock (`changeRefs`).
      const actor = actorOf(caller);
      await this.#store.save({ mergeRequest, events: [reviewEvents.mergeRequestMerged.event(mergeRequestEventData(mergeRequest))], actor });
      await this.#history({ type: 'MergeRequest', issuable: mergeRequest, transition: 'merged', actor, at });
      return { mergeRequest, sourceHead: source, removeSource };
    });
    if (!merged) {
      // Kept although the merge is refused: saved once the lock's transaction, which nothing changed, ended.
      await this.#em.transactional(() => this.#store.save({ mergeRequest, events: [], actor: null }));
      throw new NotAcceptableError('Branch cannot be merged');
    }
    if (merged.removeSource && isFromFork(merged.mergeRequest) && options.mayPushToForkSource) {
      await this.#removeForkBranch({ mergeRequest: merged.mergeRequest, head: merged.sourceHead, caller });
    }
    for (const listener of this.#afterMerge) await listener({ mergeRequest: merged.mergeRequest, scope, caller });
    return merged.mergeRequest;
  }

  /** GitLab's `can_be_merged_by?`: developers and above who may merge into the target branch (its protection weighed); 401 otherwise. */
  async requireMergeRight(scope: MergeRequestScope, caller: AuthenticatedCaller, mergeRequest: MergeRequest): Promise<void> {
    const { project } = scope;
    if (!project.isAdmin && project.accessLevel < ACCESS_LEVEL.DEVELOPER) throw new UnauthorizedError();
    const protections = await this.#protectedBranches.list(project.id);
    const actor = await this.#protectedBranches.actorOf({
      projectId: project.id,
      userId: caller.userId,
      accessLevel: project.accessLevel,
      isAdmin: project.isAdmin,
    });
    // An archived project is read-only: merging needs GitLab's push_code, which archiving prevents (`can_be_merged_by?`).
    if (project.archived || !mayOnBranch({ action: 'merge', branch: mergeRequest.targetBranch, protections, actor })) {
      throw new UnauthorizedError();
    }
  }

  /** Deletes a merged fork's source branch in the fork, as a push there (unless it moved since). */
  async #removeForkBranch(options: { mergeRequest: MergeRequest; head: string; caller: AuthenticatedCaller }): Promise<void> {
    const { mergeRequest, head, caller } = options;
    const source: ProjectRepository | null = await this.#repositories.find(mergeRequest.sourceProjectId);
    if (!source) return;
    await this.#repositories
      .changeRefs(source, caller, () => source.git.deleteRef(`${BRANCH_PREFIX}${mergeRequest.sourceBranch}`, head))
      .catch((error: unknown) =>
        // The merge happened; a fork that refuses the deletion (read-only during a move) keeps its branch.
        this.#logger.warn({ err: error, mergeRequestId: mergeRequest.id }, 'the source branch in the fork was not removed'),
      );
  }
}
