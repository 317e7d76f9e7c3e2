import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import type { OutgoingEvent } from '@platform/events';
import { InputError, NotFoundError, UnprocessableError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import { reviewEvents } from '@platform/review-client';
import { mentioningText, type IssuableHistory, type IssuableTransition } from '../core/issuable-history.ts';
import { isDraftTitle } from '../core/merge-request-text.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { branchHead, isFromFork, sourceHead, type MergeRequestScope, type RepositoryFinder } from './merge-request-refs.ts';
import { close, mergeRequestEventData, reopen } from './merge-request-state.ts';
import type { MergeRequestVersions } from './merge-request-versions.ts';
import type { Mergeability } from './mergeability.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';
import type { ApproversOverridable } from './create-merge-request-service.ts';
import type { AutoMergeService } from './auto-merge-service.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';

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

/**
 * Reads a merge request's closing references again, in the caller's transaction (the issues
 * feature's merge_requests_closing_issues): as `author` reads them, as its own author's by default.
 */
export interface ClosingIssuesRefresher {
  refresh(options: {
    mergeRequest: MergeRequest;
    repository: ProjectRepository;
    author?: AuthenticatedCaller | undefined;
    project?: ProjectAccess | undefined;
  }): Promise<void>;
}

/**
 * Changes merge requests (GitLab's `MergeRequests::UpdateService`), closing and reopening them by
 * `state_event` as its close and reopen services do: a new target is a new diff version. Closing
 * it or changing its target aborts a merge set to happen when the pipeline succeeds.
 */
export class UpdateMergeRequestService {
  readonly #em: EntityManager;
  readonly #store: MergeRequestStore;
  readonly #repositories: RepositoryFinder;
  readonly #versions: MergeRequestVersions;
  readonly #mergeability: Mergeability;
  readonly #approversOverridable: ApproversOverridable;
  readonly #history: IssuableHistory;
  readonly #autoMerges: Pick<AutoMergeService, 'abort'>;
  readonly #closingIssues: ClosingIssuesRefresher;

  constructor(options: {
    em: EntityManager;
    store: MergeRequestStore;
    repositories: RepositoryFinder;
    versions: MergeRequestVersions;
    mergeability: Mergeability;
    approversOverridable: ApproversOverridable;
    /** Where each change is written as GitLab's system notes and resource events. */
    history: IssuableHistory;
    autoMerges: Pick<AutoMergeService, 'abort'>;
    /** Reads the closing references of an edited or reopened merge request again. */
    closingIssues: ClosingIssuesRefresher;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#repositories = options.repositories;
    this.#versions = options.versions;
    this.#mergeability = options.mergeability;
    this.#approversOverridable = options.approversOverridable;
    this.#history = options.history;
    this.#autoMerges = options.autoMerges;
    this.#closingIssues = options.closingIssues;
  }

  async update(scope: MergeRequestScope, caller: AuthenticatedCaller, iid: number, changes: MergeRequestChanges): Promise<MergeRequest> {
    const mergeRequest = await this.#store.find(scope.project.id, iid);
    if (!mergeRequest) throw new NotFoundError('Merge Request');
    const events: OutgoingEvent[] = [];
    // Why a merge when the pipeline succeeds no longer holds (GitLab's close and update services' `abort_auto_merge`); closing says it first.
    let abortReason: string | null = null;
    const previous = { title: mergeRequest.title, description: mergeRequest.description };
    let newTargetHead: string | null = null;
    if (changes.targetBranch !== undefined && changes.targetBranch !== mergeRequest.targetBranch) {
      if (!isFromFork(mergeRequest) && changes.targetBranch === mergeRequest.sourceBranch) {
        throw new UnprocessableError(["You can't use same project/branch for source and target"]);
      }
      newTargetHead = await branchHead(scope.repository, changes.targetBranch);
      if (!newTargetHead) throw new InputError(`Invalid target branch: ${changes.targetBranch}`);
      mergeRequest.targetBranch = changes.targetBranch;
      mergeRequest.mergeStatus = 'unchecked';
      abortReason = 'target branch was changed';
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
    let transition: IssuableTransition | undefined;
    if (changes.stateEvent === 'close' && close(mergeRequest, { closedById: caller.userId, at: now })) {
      transition = 'closed';
      events.push(reviewEvents.mergeRequestClosed.event(mergeRequestEventData(mergeRequest)));
      abortReason = 'merge request was closed';
    } else if (changes.stateEvent === 'reopen' && reopen(mergeRequest, { at: now })) {
      transition = 'reopened';
      events.push(reviewEvents.mergeRequestReopened.event(mergeRequestEventData(mergeRequest)));
    }
    mergeRequest.updatedAt = now;
    const updated = mergeRequestEventData(mergeRequest);
    const edits = {
      ...(mergeRequest.title !== previous.title ? { previousTitle: previous.title } : {}),
      ...(mergeRequest.description !== previous.description ? { descriptionChanged: true } : {}),
    };
    events.push(reviewEvents.mergeRequestUpdated.event({ ...updated, data: { ...updated.data, ...edits } }));
    const mentions = { text: mentioningText(mergeRequest), previousText: mentioningText(previous), author: caller };
    const actor = actorOf(caller);
    await this.#em.transactional(async () => {
      await this.#store.save({ mergeRequest, events, actor });
      await this.#history({ type: 'MergeRequest', issuable: mergeRequest, transition, ...edits, mentions, actor, at: now });
      if (abortReason) await this.#autoMerges.abort({ mergeRequest, actor, reason: abortReason });
      if (transition === 'reopened' || edits.previousTitle !== undefined || edits.descriptionChanged) {
        await this.#closingIssues.refresh({ mergeRequest, repository: scope.repository, author: caller, project: scope.project });
      }
    });
    // Another target is another diff, as GitLab reloads it: a new version against the new target.
    if (newTargetHead && mergeRequest.headSha) {
      const head = (await sourceHead({ repositories: this.#repositories, target: scope.repository, mergeRequest })) ?? mergeRequest.headSha;
      await this.#versions.record({
        repository: scope.repository,
        mergeRequest,
        heads: { sourceHead: head, targetHead: newTargetHead },
        cause: 'retargeted',
      });
    }
    await this.#mergeability.checkIfUnchecked(scope.repository, mergeRequest);
    return mergeRequest;
  }
}
