import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EventActor } from '@platform/events';
import { DomainError, FieldValidationError, ForbiddenError, InputError, NotFoundError, UnauthorizedError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { ZERO_SHA, type FileDiff, type GitCommit } from '../repositories/git-repository.ts';
import type { ProjectRepository, RepositoriesService } from '../repositories/repositories-service.ts';
import type { RefChange } from '../repositories/ref-changes.ts';
import { reviewEvents } from '@platform/review-client';
import { mayOnBranch } from '../protected-branches/branch-protection.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import { isDraftTitle } from '../core/merge-request-text.ts';
import type { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import type { MergeRequestFilter, MergeRequestOrder, MergeRequestStore } from './merge-requests-store.ts';
import type { Milestone } from '../milestones/milestone.entity.ts';

/** A refusal GitLab answers with its own status and body (405, 406, 409, 422). */
export class MergeRequestRefusal extends DomainError {
  override name = 'MergeRequestRefusal';
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(typeof body === 'object' && body !== null && 'message' in body ? String((body as { message: unknown }).message) : String(status));
    this.status = status;
    this.body = body;
  }
}

/** A project's repository as the caller reaches it. */
export interface MergeRequestScope {
  project: ProjectAccess;
  repository: ProjectRepository;
}

export interface NewMergeRequestInput {
  /** The target project's namespace and its ancestors, for group lists. */
  targetNamespaceIds: number[];
  /** Where the source branch is: the target's own repository, or a fork's (GitLab's `source_project`). */
  sourceRepository: ProjectRepository;
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string;
  assigneeIds: number[];
  reviewerIds: number[];
  labels: string[];
  /** A milestone of the project, already checked; null for none. */
  milestoneId: number | null;
  removeSourceBranch: boolean;
  squash: boolean;
  allowCollaboration: boolean;
  approvalsBeforeMerge?: number | undefined;
}

export interface MergeRequestChanges {
  title?: string | undefined;
  description?: string | undefined;
  targetBranch?: string | undefined;
  stateEvent?: 'close' | 'reopen' | undefined;
  assigneeIds?: number[] | undefined;
  reviewerIds?: number[] | undefined;
  labels?: string[] | undefined;
  addLabels?: string[] | undefined;
  removeLabels?: string[] | undefined;
  /** A milestone of the project, already checked; null removes it. */
  milestoneId?: number | null | undefined;
  removeSourceBranch?: boolean | undefined;
  squash?: boolean | undefined;
  discussionLocked?: boolean | undefined;
  allowCollaboration?: boolean | undefined;
  approvalsBeforeMerge?: number | undefined;
}

export interface MergeOptions {
  sha?: string | undefined;
  /** Whether the merging user may push to a fork's source branch: only then does the merge remove it (GitLab's `can_remove_source_branch?`). */
  mayPushToForkSource?: boolean | undefined;
  squash?: boolean | undefined;
  shouldRemoveSourceBranch?: boolean | undefined;
  mergeCommitMessage?: string | undefined;
  squashCommitMessage?: string | undefined;
}

const BRANCH_PREFIX = 'refs/heads/';
/** GitLab's `merge_error` once a rebase stopped on conflicts. */
export const REBASE_ERROR = 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.';
/** A rebase that began this long ago is taken for one whose replica stopped: another may start. */
const REBASE_TIMEOUT_MS = 10 * 60_000;

/** Whether a rebase of the merge request's source runs now (one that began too long ago stopped with its replica). */
export function rebaseInProgress(mergeRequest: MergeRequest, now = new Date()): boolean {
  return !!mergeRequest.rebaseStartedAt && now.getTime() - mergeRequest.rebaseStartedAt.getTime() < REBASE_TIMEOUT_MS;
}

/** The ref that keeps a merge request's newest head reachable, whatever happens to its source branch (GitLab's). */
function headRef(mergeRequest: MergeRequest): string {
  return `refs/merge-requests/${mergeRequest.iid}/head`;
}

/** Whether the merge request's source branch is in a fork of its (target) project. */
export function isFromFork(mergeRequest: Pick<MergeRequest, 'projectId' | 'sourceProjectId'>): boolean {
  return mergeRequest.sourceProjectId !== mergeRequest.projectId;
}

/** The event payload of a merge request as it is now. */
function eventData(mergeRequest: MergeRequest) {
  return {
    aggregateId: mergeRequest.projectId,
    data: {
      projectId: mergeRequest.projectId,
      mergeRequestId: mergeRequest.id,
      iid: mergeRequest.iid,
      title: mergeRequest.title,
      state: mergeRequest.state,
      sourceBranch: mergeRequest.sourceBranch,
      targetBranch: mergeRequest.targetBranch,
      authorId: mergeRequest.authorId,
      mergeCommitSha: mergeRequest.mergeCommitSha ?? '',
    },
  };
}

/** Who writes the commits a merge makes: the merging user, with a no-reply address on the platform's host. */
function signatureOf(caller: AuthenticatedCaller, project: ProjectAccess) {
  return { name: caller.name, email: `${caller.userId}-${caller.username}@users.noreply.${new URL(project.webUrl).hostname}` };
}

/** Why a merge request got a new diff version: it was created, its source moved, or it now targets another branch. */
export type VersionCause = 'created' | 'pushed' | 'retargeted';

/** What happens once a merge request got a new diff version. */
export type VersionListener = (options: {
  mergeRequest: MergeRequest;
  repository: ProjectRepository;
  version: MergeRequestDiff;
  cause: VersionCause;
}) => Promise<void>;

/** What happens once a merge request was merged (by `caller`), after it was recorded. */
export type MergeListener = (options: {
  mergeRequest: MergeRequest;
  scope: MergeRequestScope;
  caller: AuthenticatedCaller;
}) => Promise<void>;

/** Whether a merge request has the approvals it needs to be merged. */
export type ApprovalCheck = (mergeRequest: MergeRequest) => Promise<boolean>;

/** What other features keep about merge requests that their views show. */
export interface MergeRequestFacts {
  userNotesCount: number;
  upvotes: number;
  downvotes: number;
  /** Whether the user the views are for is subscribed. */
  subscribed: boolean;
  milestone: Milestone | null;
}

const NO_FACTS: MergeRequestFacts = { userNotesCount: 0, upvotes: 0, downvotes: 0, subscribed: false, milestone: null };

/** The merge requests `userId` reacted to with the emoji `name`, or with any emoji. */
export type ReactionLookup = (reaction: { userId: number; name?: string | undefined }) => Promise<number[]>;

/** One feature's part of the facts of `mergeRequests`, as `userId` sees them (null for nobody in particular). */
export type FactsSource = (mergeRequests: MergeRequest[], userId: number | null) => Promise<Map<number, Partial<MergeRequestFacts>>>;

/** Whether a project's merge requests may set their own approvals (GitLab's `update_approvers`). */
export type ApproversOverridable = (projectId: number) => Promise<boolean>;

export class MergeRequestsService {
  readonly #store: MergeRequestStore;
  readonly #versionListeners: VersionListener[] = [];
  readonly #mergeListeners: MergeListener[] = [];
  #approvalCheck: ApprovalCheck = async () => true;
  #approversOverridable: ApproversOverridable = async () => true;
  readonly #factsSources: FactsSource[] = [];
  /** Nobody reacted to anything until a feature keeps reactions. */
  #reactions: ReactionLookup = async () => [];
  readonly #repositories: RepositoriesService;
  readonly #protectedBranches: ProtectedBranchesService;
  readonly #logger: Logger;

  constructor(options: {
    store: MergeRequestStore;
    repositories: RepositoriesService;
    protectedBranches: ProtectedBranchesService;
    logger: Logger;
  }) {
    this.#store = options.store;
    this.#repositories = options.repositories;
    this.#protectedBranches = options.protectedBranches;
    this.#logger = options.logger;
  }

  /** Adds a listener told of every new diff version, after it was recorded. */
  onNewVersion(listener: VersionListener): void {
    this.#versionListeners.push(listener);
  }

  /** Adds a listener told of every merge, after it was recorded. */
  onMerged(listener: MergeListener): void {
    this.#mergeListeners.push(listener);
  }

  /** Merging waits for approvals as `check` decides (every merge request may be merged without one). */
  requireApprovals(check: ApprovalCheck): void {
    this.#approvalCheck = check;
  }

  /** `approvals_before_merge` of a merge request is taken only where `check` allows it, and silently dropped elsewhere (as GitLab). */
  overrideApproversWhen(check: ApproversOverridable): void {
    this.#approversOverridable = check;
  }

  /** Adds a feature's part of what merge request views show (notes counted, reactions, subscriptions). */
  addFactsSource(source: FactsSource): void {
    this.#factsSources.push(source);
  }

  /** Where the `my_reaction_emoji` filter finds reactions. */
  findReactionsWith(lookup: ReactionLookup): void {
    this.#reactions = lookup;
  }

  /** The merge requests `userId` reacted to with `name`, or with any emoji. */
  reactedTo(reaction: { userId: number; name?: string | undefined }): Promise<number[]> {
    return this.#reactions(reaction);
  }

  /** The facts every source knows of `mergeRequests`, by merge request id; none known are zeros. */
  async facts(mergeRequests: MergeRequest[], userId: number | null): Promise<Map<number, MergeRequestFacts>> {
    const parts = await Promise.all(this.#factsSources.map((source) => source(mergeRequests, userId)));
    return new Map(
      mergeRequests.map((mergeRequest) => [
        mergeRequest.id,
        Object.assign({}, NO_FACTS, ...parts.map((part) => part.get(mergeRequest.id) ?? {})) as MergeRequestFacts,
      ]),
    );
  }

  /** Whether the merge request has the approvals it needs. */
  isApproved(mergeRequest: MergeRequest): Promise<boolean> {
    return this.#approvalCheck(mergeRequest);
  }

  async #branchHead(repository: ProjectRepository, branch: string): Promise<string | null> {
    return repository.git.resolveCommit(`${BRANCH_PREFIX}${branch}`);
  }

  /**
   * The head of the merge request's source branch, with its commits in the target repository: a
   * fork's head is fetched into the merge request's ref there when the target lacks it. Null when
   * the branch (or the fork) is gone.
   */
  async #sourceHead(target: ProjectRepository, mergeRequest: MergeRequest): Promise<string | null> {
    if (!isFromFork(mergeRequest)) return this.#branchHead(target, mergeRequest.sourceBranch);
    const source = await this.#repositories.find(mergeRequest.sourceProjectId);
    const head = source ? await this.#branchHead(source, mergeRequest.sourceBranch) : null;
    if (!source || !head) return null;
    if (!(await target.git.resolveCommit(head)))
      await target.git.fetchCommit({ source: source.git, sha: head, into: headRef(mergeRequest) });
    return head;
  }

  async create(scope: MergeRequestScope, caller: AuthenticatedCaller, input: NewMergeRequestInput): Promise<MergeRequest> {
    const { project, repository } = scope;
    const source = input.sourceRepository;
    const fromFork = source.projectId !== project.id;
    if (!fromFork && input.sourceBranch === input.targetBranch) {
      throw new MergeRequestRefusal(422, { message: ["You can't use same project/branch for source and target"] });
    }
    const sourceHead = await this.#branchHead(source, input.sourceBranch);
    if (!sourceHead) throw new InputError(`Invalid source branch: ${input.sourceBranch}`);
    const targetHead = await this.#branchHead(repository, input.targetBranch);
    if (!targetHead) throw new InputError(`Invalid target branch: ${input.targetBranch}`);
    const existing = await this.#store.findOpen({
      projectId: project.id,
      sourceProjectId: source.projectId,
      sourceBranch: input.sourceBranch,
      targetBranch: input.targetBranch,
    });
    if (existing) {
      throw new MergeRequestRefusal(409, {
        message: [`Another open merge request already exists for this source branch: !${existing.iid}`],
      });
    }
    const now = new Date();
    const created = await this.#store.create({
      mergeRequest: {
        projectId: project.id,
        sourceProjectId: source.projectId,
        targetNamespaceIds: input.targetNamespaceIds,
        sourceBranch: input.sourceBranch,
        targetBranch: input.targetBranch,
        title: input.title,
        draft: isDraftTitle(input.title),
        description: input.description,
        state: 'opened',
        authorId: caller.userId,
        assigneeIds: input.assigneeIds,
        reviewerIds: input.reviewerIds,
        labels: input.labels,
        milestoneId: input.milestoneId,
        squash: input.squash,
        forceRemoveSourceBranch: input.removeSourceBranch,
        // GitLab's `allow_collaboration` is about maintainers of the target pushing to a fork's branch.
        allowCollaboration: fromFork && input.allowCollaboration,
        discussionLocked: null,
        approvalsBeforeMerge:
          input.approvalsBeforeMerge !== undefined && (await this.#approversOverridable(project.id)) ? input.approvalsBeforeMerge : null,
        mergeStatus: 'unchecked',
        fastForwardPossible: false,
        rebaseStartedAt: null,
        mergeError: null,
        headSha: sourceHead,
        mergeCommitSha: null,
        squashCommitSha: null,
        mergedById: null,
        mergedAt: null,
        closedById: null,
        closedAt: null,
        timeEstimate: 0,
        totalTimeSpent: 0,
        createdAt: now,
        updatedAt: now,
      },
      event: (mergeRequest) => reviewEvents.mergeRequestCreated.event(eventData(mergeRequest)),
      actor: actorOf(caller),
    });
    // The fork's commits come into the target repository, kept by the merge request's own ref.
    if (fromFork) await repository.git.fetchCommit({ source: source.git, sha: sourceHead, into: headRef(created) });
    await this.#recordVersion(repository, created, { sourceHead, targetHead }, 'created');
    await this.#checkMergeStatus(repository, created);
    return created;
  }

  async get(projectId: number, iid: number): Promise<MergeRequest> {
    const found = await this.#store.find(projectId, iid);
    if (!found) throw new NotFoundError('Merge Request');
    return found;
  }

  find(projectId: number, iid: number): Promise<MergeRequest | null> {
    return this.#store.find(projectId, iid);
  }

  /** The merge request with a fresh `merge_status` when it is unchecked (single reads compute it; lists never wait). */
  async getChecked(scope: MergeRequestScope, iid: number): Promise<MergeRequest> {
    const found = await this.get(scope.project.id, iid);
    if (found.state === 'opened' && found.mergeStatus === 'unchecked') await this.#checkMergeStatus(scope.repository, found);
    return found;
  }

  /** Every user some merge request names: where usernames of list filters are looked for. */
  involvedUserIds(): Promise<number[]> {
    return this.#store.involvedUserIds();
  }

  list(options: { filter: MergeRequestFilter; order: MergeRequestOrder; offset: number; limit: number }) {
    return this.#store.list(options);
  }

  /** Computes `merge_status` of the listed merge requests that are unchecked (`with_merge_status_recheck`), in the background. */
  recheckLater(scope: MergeRequestScope, mergeRequests: MergeRequest[]): void {
    const unchecked = mergeRequests.filter((mergeRequest) => mergeRequest.state === 'opened' && mergeRequest.mergeStatus === 'unchecked');
    for (const mergeRequest of unchecked) {
      this.#checkMergeStatus(scope.repository, mergeRequest).catch((error: unknown) =>
        this.#logger.error({ err: error, mergeRequestId: mergeRequest.id }, 'merge status check failed'),
      );
    }
  }

  async update(scope: MergeRequestScope, caller: AuthenticatedCaller, iid: number, changes: MergeRequestChanges): Promise<MergeRequest> {
    const mergeRequest = await this.get(scope.project.id, iid);
    const events = [];
    let newTargetHead: string | null = null;
    if (changes.targetBranch !== undefined && changes.targetBranch !== mergeRequest.targetBranch) {
      if (!isFromFork(mergeRequest) && changes.targetBranch === mergeRequest.sourceBranch) {
        throw new MergeRequestRefusal(422, { message: ["You can't use same project/branch for source and target"] });
      }
      newTargetHead = await this.#branchHead(scope.repository, changes.targetBranch);
      if (!newTargetHead) throw new InputError(`Invalid target branch: ${changes.targetBranch}`);
      mergeRequest.targetBranch = changes.targetBranch;
      mergeRequest.mergeStatus = 'unchecked';
    }
    if (changes.title !== undefined) {
      mergeRequest.title = changes.title;
      mergeRequest.draft = isDraftTitle(changes.title);
    }
    if (changes.description !== undefined) mergeRequest.description = changes.description;
    if (changes.assigneeIds !== undefined) mergeRequest.assigneeIds = [...new Set(changes.assigneeIds)];
    if (changes.reviewerIds !== undefined) mergeRequest.reviewerIds = [...new Set(changes.reviewerIds)];
    if (changes.labels !== undefined) mergeRequest.labels = [...new Set(changes.labels)];
    if (changes.addLabels) mergeRequest.labels = [...new Set([...mergeRequest.labels, ...changes.addLabels])];
    if (changes.removeLabels) mergeRequest.labels = mergeRequest.labels.filter((label) => !changes.removeLabels?.includes(label));
    if (changes.milestoneId !== undefined) mergeRequest.milestoneId = changes.milestoneId;
    if (changes.removeSourceBranch !== undefined) mergeRequest.forceRemoveSourceBranch = changes.removeSourceBranch;
    if (changes.squash !== undefined) mergeRequest.squash = changes.squash;
    if (changes.discussionLocked !== undefined) mergeRequest.discussionLocked = changes.discussionLocked;
    if (changes.allowCollaboration !== undefined && isFromFork(mergeRequest)) mergeRequest.allowCollaboration = changes.allowCollaboration;
    if (changes.approvalsBeforeMerge !== undefined && (await this.#approversOverridable(mergeRequest.projectId)))
      mergeRequest.approvalsBeforeMerge = changes.approvalsBeforeMerge;
    const now = new Date();
    if (changes.stateEvent === 'close' && mergeRequest.state === 'opened') {
      mergeRequest.state = 'closed';
      mergeRequest.closedAt = now;
      mergeRequest.closedById = caller.userId;
      events.push(reviewEvents.mergeRequestClosed.event(eventData(mergeRequest)));
    } else if (changes.stateEvent === 'reopen' && mergeRequest.state === 'closed') {
      mergeRequest.state = 'opened';
      mergeRequest.closedAt = null;
      mergeRequest.closedById = null;
      mergeRequest.mergeStatus = 'unchecked';
      events.push(reviewEvents.mergeRequestReopened.event(eventData(mergeRequest)));
    }
    mergeRequest.updatedAt = now;
    events.push(reviewEvents.mergeRequestUpdated.event(eventData(mergeRequest)));
    await this.#store.save({ mergeRequest, events, actor: actorOf(caller) });
    // Another target is another diff, as GitLab reloads it: a new version against the new target.
    if (newTargetHead && mergeRequest.headSha) {
      const sourceHead = (await this.#sourceHead(scope.repository, mergeRequest)) ?? mergeRequest.headSha;
      await this.#recordVersion(scope.repository, mergeRequest, { sourceHead, targetHead: newTargetHead }, 'retargeted');
    }
    if (mergeRequest.state === 'opened' && mergeRequest.mergeStatus === 'unchecked')
      await this.#checkMergeStatus(scope.repository, mergeRequest);
    return mergeRequest;
  }

  /** Sets the time estimate (seconds; 0 resets it). */
  async setTimeEstimate(mergeRequest: MergeRequest, caller: AuthenticatedCaller, seconds: number): Promise<MergeRequest> {
    mergeRequest.timeEstimate = seconds;
    mergeRequest.updatedAt = new Date();
    await this.#store.save({
      mergeRequest,
      events: [reviewEvents.mergeRequestUpdated.event(eventData(mergeRequest))],
      actor: actorOf(caller),
    });
    return mergeRequest;
  }

  /** Adds time spent (negative subtracts), or takes it all back; FieldValidationError, as GitLab, when more is subtracted than was spent. */
  async spendTime(mergeRequest: MergeRequest, caller: AuthenticatedCaller, seconds: number | 'reset'): Promise<MergeRequest> {
    const changed = await this.#store.spendTime({
      id: mergeRequest.id,
      seconds,
      event: (updated) => reviewEvents.mergeRequestUpdated.event(eventData(updated)),
      actor: actorOf(caller),
    });
    if (!changed) throw new FieldValidationError({ time_spent: ['Time to subtract exceeds the total time spent'] });
    return changed;
  }

  async delete(projectId: number, iid: number): Promise<void> {
    const mergeRequest = await this.get(projectId, iid);
    await this.#store.delete(mergeRequest.id);
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
    const mergeRequest = await this.get(project.id, iid);
    const protections = await this.#protectedBranches.list(project.id);
    const actor = await this.#protectedBranches.actorOf({
      projectId: project.id,
      userId: caller.userId,
      accessLevel: project.accessLevel,
      isAdmin: project.isAdmin,
    });
    if (!mayOnBranch({ action: 'merge', branch: mergeRequest.targetBranch, protections, actor })) throw new UnauthorizedError();
    if (mergeRequest.state !== 'opened' || mergeRequest.draft) throw new MergeRequestRefusal(405, { message: '405 Method Not Allowed' });
    // GitLab's `mergeable?` is false while approvals are missing: the same refusal.
    if (!(await this.#approvalCheck(mergeRequest))) throw new MergeRequestRefusal(405, { message: '405 Method Not Allowed' });
    const merged = await this.#repositories.changeRefs(repository, caller, async () => {
      const sourceHead = await this.#sourceHead(repository, mergeRequest);
      const targetHead = await this.#branchHead(repository, mergeRequest.targetBranch);
      if (!sourceHead || !targetHead) throw new MergeRequestRefusal(422, { message: 'Branch cannot be merged' });
      if (options.sha !== undefined && options.sha !== sourceHead) {
        throw new MergeRequestRefusal(409, { message: 'SHA does not match HEAD of source branch' });
      }
      const trial = await repository.git.trialMerge(targetHead, sourceHead);
      const fastForwardPossible = await repository.git.isAncestor(targetHead, sourceHead);
      if (!trial.clean || (project.mergeMethod !== 'merge' && !fastForwardPossible)) {
        mergeRequest.mergeStatus = trial.clean ? 'can_be_merged' : 'cannot_be_merged';
        mergeRequest.fastForwardPossible = fastForwardPossible;
        await this.#store.save({ mergeRequest, events: [], actor: null });
        throw new MergeRequestRefusal(406, { message: 'Branch cannot be merged' });
      }
      const author = signatureOf(caller, project);
      const squash = options.squash ?? mergeRequest.squash;
      let mergedHead = sourceHead;
      if (squash) {
        const base = (await repository.git.mergeBase(targetHead, sourceHead)) ?? targetHead;
        const message = options.squashCommitMessage ?? mergeRequest.title;
        mergedHead = await repository.git.commitTree({ tree: await repository.git.treeOf(sourceHead), parents: [base], message, author });
        mergeRequest.squashCommitSha = mergedHead;
      }
      let newTargetHead = mergedHead;
      // Fast-forward only: the target becomes the source (or its squash commit), no merge commit.
      if (project.mergeMethod !== 'ff') {
        const squashedTrial = squash ? await repository.git.trialMerge(targetHead, mergedHead) : trial;
        if (!squashedTrial.clean) throw new MergeRequestRefusal(406, { message: 'Branch cannot be merged' });
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
        throw new MergeRequestRefusal(422, { message: 'Branch cannot be merged' });
      }
      const removeSource = options.shouldRemoveSourceBranch ?? mergeRequest.forceRemoveSourceBranch;
      if (removeSource && !isFromFork(mergeRequest))
        await repository.git.deleteRef(`${BRANCH_PREFIX}${mergeRequest.sourceBranch}`, sourceHead);
      const now = new Date();
      Object.assign(mergeRequest, {
        state: 'merged',
        mergeStatus: 'can_be_merged',
        // GitLab records no merge commit for a fast-forward: the target's head is the source's own commit.
        mergeCommitSha: project.mergeMethod === 'ff' ? null : newTargetHead,
        mergedById: caller.userId,
        mergedAt: now,
        updatedAt: now,
        headSha: sourceHead,
      });
      await this.#store.save({
        mergeRequest,
        events: [reviewEvents.mergeRequestMerged.event(eventData(mergeRequest))],
        actor: actorOf(caller),
      });
      return { mergeRequest, sourceHead, removeSource };
    });
    if (merged.removeSource && isFromFork(merged.mergeRequest) && options.mayPushToForkSource) {
      await this.#removeForkBranch({ mergeRequest: merged.mergeRequest, head: merged.sourceHead, caller });
    }
    for (const listener of this.#mergeListeners) await listener({ mergeRequest: merged.mergeRequest, scope, caller });
    return merged.mergeRequest;
  }

  /** Deletes a merged fork's source branch in the fork, as a push there (unless it moved since). */
  async #removeForkBranch(options: { mergeRequest: MergeRequest; head: string; caller: AuthenticatedCaller }): Promise<void> {
    const { mergeRequest, head, caller } = options;
    const source = await this.#repositories.find(mergeRequest.sourceProjectId);
    if (!source) return;
    await this.#repositories
      .changeRefs(source, caller, () => source.git.deleteRef(`${BRANCH_PREFIX}${mergeRequest.sourceBranch}`, head))
      .catch((error: unknown) =>
        // The merge happened; a fork that refuses the deletion (read-only during a move) keeps its branch.
        this.#logger.warn({ err: error, mergeRequestId: mergeRequest.id }, 'the source branch in the fork was not removed'),
      );
  }

  /**
   * Starts rebasing the source branch onto the target in the background, as GitLab's rebase does:
   * 403 for callers who may not push to the source branch, 409 while a rebase runs (or once it is
   * no longer open). Clients poll `rebase_in_progress`; a conflict leaves the branch as it was and
   * sets `merge_error`.
   */
  async rebase(scope: MergeRequestScope, caller: AuthenticatedCaller, iid: number): Promise<void> {
    const { project, repository } = scope;
    const mergeRequest = await this.get(project.id, iid);
    // The source branch is the fork's: rebasing it is pushing there, which this project's roles do not allow.
    if (isFromFork(mergeRequest)) throw new ForbiddenError('Cannot push to source branch');
    const actor = await this.#protectedBranches.actorOf({
      projectId: project.id,
      userId: caller.userId,
      accessLevel: project.accessLevel,
      isAdmin: project.isAdmin,
    });
    const protections = await this.#protectedBranches.list(project.id);
    if (!mayOnBranch({ action: 'push', branch: mergeRequest.sourceBranch, protections, actor })) {
      throw new ForbiddenError('Cannot push to source branch');
    }
    const now = new Date();
    const started = await this.#store.startRebase({ id: mergeRequest.id, now, staleBefore: new Date(now.getTime() - REBASE_TIMEOUT_MS) });
    if (!started) throw new MergeRequestRefusal(409, { message: '409 Conflict: Resource lock' });
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
    const targetHead = await this.#branchHead(repository, mergeRequest.targetBranch);
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

  versions(mergeRequest: MergeRequest): Promise<MergeRequestDiff[]> {
    return this.#store.versions(mergeRequest.id);
  }

  async version(mergeRequest: MergeRequest, versionId: number): Promise<MergeRequestDiff> {
    const found = (await this.#store.versions(mergeRequest.id)).find((version) => version.id === versionId);
    if (!found) throw new NotFoundError();
    return found;
  }

  async latestVersion(mergeRequest: MergeRequest): Promise<MergeRequestDiff | undefined> {
    return (await this.#store.versions(mergeRequest.id))[0];
  }

  /** The commits and file diffs of a version, from git. */
  async versionContents(repository: ProjectRepository, version: MergeRequestDiff): Promise<{ commits: GitCommit[]; diffs: FileDiff[] }> {
    const [commits, diffs] = await Promise.all([
      repository.git.log({ head: version.headCommitSha, excluded: [version.baseCommitSha] }),
      repository.git.diff(version.baseCommitSha, version.headCommitSha),
    ]);
    return { commits, diffs };
  }

  /**
   * Closes the open merge requests from a fork into other projects once the fork left its network
   * (unlinked or deleted), as GitLab's unlinking does; they stay readable from their projects,
   * whose repositories keep their commits.
   */
  async closeFromFork(forkProjectId: number, actor: EventActor | null): Promise<void> {
    for (const mergeRequest of await this.#store.openFromFork(forkProjectId)) {
      const now = new Date();
      Object.assign(mergeRequest, { state: 'closed', closedAt: now, closedById: actor?.id ?? null, updatedAt: now });
      await this.#store.save({
        mergeRequest,
        events: [
          reviewEvents.mergeRequestClosed.event(eventData(mergeRequest)),
          reviewEvents.mergeRequestUpdated.event(eventData(mergeRequest)),
        ],
        actor,
      });
    }
  }

  /** The open merge requests into any of these branches of the project. */
  openTargeting(projectId: number, branches: string[]): Promise<MergeRequest[]> {
    return this.#store.openByTarget(projectId, branches);
  }

  /** Commits the source has that the target had when last compared, newest first. */
  async divergedCommitsCount(repository: ProjectRepository, mergeRequest: MergeRequest): Promise<number> {
    const sourceHead = await this.#sourceHead(repository, mergeRequest);
    const targetHead = await this.#branchHead(repository, mergeRequest.targetBranch);
    if (!sourceHead || !targetHead) return 0;
    return (await repository.git.newCommits({ head: targetHead, excluded: [sourceHead], limit: 0 })).count;
  }

  /**
   * What a push means for open merge requests: a moved source branch is a new diff version and a
   * new trial merge; a moved target branch makes their merge status unchecked until rechecked.
   */
  async onRefsChanged(projectId: number, changes: RefChange[]): Promise<void> {
    const moved = changes.filter((change) => change.ref.startsWith(BRANCH_PREFIX));
    if (moved.length === 0) return;
    const names = moved.map((change) => change.ref.slice(BRANCH_PREFIX.length));
    const repository = await this.#repositories.ensure(projectId);
    // Merge requests from this project's branches, into it or (from a fork) into another project's repository.
    for (const mergeRequest of await this.#store.openBySource(projectId, names)) {
      const target = mergeRequest.projectId === projectId ? repository : await this.#repositories.find(mergeRequest.projectId);
      if (!target) continue;
      const sourceHead = await this.#sourceHead(target, mergeRequest);
      const targetHead = await this.#branchHead(target, mergeRequest.targetBranch);
      if (!sourceHead || !targetHead || sourceHead === mergeRequest.headSha) continue;
      mergeRequest.headSha = sourceHead;
      mergeRequest.updatedAt = new Date();
      await this.#recordVersion(target, mergeRequest, { sourceHead, targetHead }, 'pushed');
      await this.#checkMergeStatus(target, mergeRequest);
    }
    const targets = await this.#store.openByTarget(projectId, names);
    for (const mergeRequest of targets) {
      mergeRequest.mergeStatus = 'unchecked';
      await this.#store.save({ mergeRequest, events: [], actor: null });
    }
    this.recheckLater({ project: { id: projectId } as ProjectAccess, repository }, targets);
  }

  async #recordVersion(
    repository: ProjectRepository,
    mergeRequest: MergeRequest,
    heads: { sourceHead: string; targetHead: string },
    cause: VersionCause,
  ): Promise<void> {
    const base = (await repository.git.mergeBase(heads.targetHead, heads.sourceHead)) ?? heads.targetHead;
    const files = await repository.git.diff(base, heads.sourceHead);
    await repository.git.updateRef(
      headRef(mergeRequest),
      heads.sourceHead,
      (await repository.git.resolveCommit(headRef(mergeRequest))) ?? ZERO_SHA,
    );
    const version = await this.#store.addVersion({
      mergeRequestId: mergeRequest.id,
      baseCommitSha: base,
      startCommitSha: heads.targetHead,
      headCommitSha: heads.sourceHead,
      filesCount: files.length,
      createdAt: new Date(),
    });
    await this.#store.save({ mergeRequest, events: [], actor: null });
    for (const listener of this.#versionListeners) await listener({ mergeRequest, repository, version, cause });
  }

  async #checkMergeStatus(repository: ProjectRepository, mergeRequest: MergeRequest): Promise<void> {
    const sourceHead = await this.#sourceHead(repository, mergeRequest);
    const targetHead = await this.#branchHead(repository, mergeRequest.targetBranch);
    const clean = sourceHead && targetHead ? (await repository.git.trialMerge(targetHead, sourceHead)).clean : false;
    mergeRequest.mergeStatus = clean ? 'can_be_merged' : 'cannot_be_merged';
    mergeRequest.fastForwardPossible = sourceHead && targetHead ? await repository.git.isAncestor(targetHead, sourceHead) : false;
    await this.#store.save({ mergeRequest, events: [], actor: null });
  }
}
