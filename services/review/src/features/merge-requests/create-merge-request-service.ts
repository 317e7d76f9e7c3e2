import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import { ConflictError, InputError, UnprocessableError } from '@platform/errors';
import { reviewEvents } from '@platform/review-client';
import { mentioningText, type IssuableHistory } from '../core/issuable-history.ts';
import { isDraftTitle } from '../core/merge-request-text.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { branchHead, headRef, type MergeRequestScope } from './merge-request-refs.ts';
import { mergeRequestEventData } from './merge-request-state.ts';
import type { MergeRequestVersions } from './merge-request-versions.ts';
import type { Mergeability } from './mergeability.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';

/** Whether a project's merge requests may set their own approvals (GitLab's `update_approvers`). */
export type ApproversOverridable = (projectId: number) => Promise<boolean>;

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

/** Opens merge requests (GitLab's `MergeRequests::CreateService`): the first diff version and merge status come with it. */
export class CreateMergeRequestService {
  readonly #em: EntityManager;
  readonly #store: MergeRequestStore;
  readonly #versions: MergeRequestVersions;
  readonly #mergeability: Mergeability;
  readonly #approversOverridable: ApproversOverridable;
  readonly #history: IssuableHistory;

  constructor(options: {
    em: EntityManager;
    store: MergeRequestStore;
    versions: MergeRequestVersions;
    mergeability: Mergeability;
    /** `approvals_before_merge` is taken only where this allows it, and silently dropped elsewhere (as GitLab). */
    approversOverridable: ApproversOverridable;
    /** Where its labels and milestone start its history. */
    history: IssuableHistory;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#versions = options.versions;
    this.#mergeability = options.mergeability;
    this.#approversOverridable = options.approversOverridable;
    this.#history = options.history;
  }

  async create(scope: MergeRequestScope, caller: AuthenticatedCaller, input: NewMergeRequestInput): Promise<MergeRequest> {
    const { project, repository } = scope;
    const source = input.sourceRepository;
    const fromFork = source.projectId !== project.id;
    if (!fromFork && input.sourceBranch === input.targetBranch) {
      throw new UnprocessableError(["You can't use same project/branch for source and target"]);
    }
    const sourceHead = await branchHead(source, input.sourceBranch);
    if (!sourceHead) throw new InputError(`Invalid source branch: ${input.sourceBranch}`);
    const targetHead = await branchHead(repository, input.targetBranch);
    if (!targetHead) throw new InputError(`Invalid target branch: ${input.targetBranch}`);
    const existing = await this.#store.findOpen({
      projectId: project.id,
      sourceProjectId: source.projectId,
      sourceBranch: input.sourceBranch,
      targetBranch: input.targetBranch,
    });
    if (existing) {
      throw new ConflictError([`Another open merge request already exists for this source branch: !${existing.iid}`]);
    }
    const now = new Date();
    const approvalsBeforeMerge =
      input.approvalsBeforeMerge !== undefined && (await this.#approversOverridable(project.id)) ? input.approvalsBeforeMerge : null;
    const actor = actorOf(caller);
    const created = await this.#em.transactional(async () => {
      const mergeRequest = await this.#store.create({
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
          approvalsBeforeMerge,
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
        event: (mergeRequest) => reviewEvents.mergeRequestCreated.event(mergeRequestEventData(mergeRequest)),
        actor,
      });
      const mentions = { text: mentioningText(mergeRequest), author: caller };
      await this.#history({ type: 'MergeRequest', issuable: mergeRequest, mentions, actor, at: now });
      return mergeRequest;
    });
    // The fork's commits come into the target repository, kept by the merge request's own ref.
    if (fromFork) await repository.git.fetchCommit({ source: source.git, sha: sourceHead, into: headRef(created) });
    await this.#versions.record({ repository, mergeRequest: created, heads: { sourceHead, targetHead }, cause: 'created' });
    await this.#mergeability.check(repository, created);
    return created;
  }
}
