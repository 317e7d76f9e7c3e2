import type { EntityManager } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { branchHead, sourceHead, type RepositoryFinder } from './merge-request-refs.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';

/**
 * A merge request's `merge_status` (can the source merge into the target without conflicts, by a
 * trial merge) and whether a fast-forward is possible, kept on the merge request.
 */
export class Mergeability {
  readonly #em: EntityManager;
  readonly #store: MergeRequestStore;
  readonly #repositories: RepositoryFinder;
  readonly #logger: Logger;

  constructor(options: { em: EntityManager; store: MergeRequestStore; repositories: RepositoryFinder; logger: Logger }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#repositories = options.repositories;
    this.#logger = options.logger;
  }

  /** Computes and saves the merge status: `cannot_be_merged` when the trial merge conflicts or a branch is gone. */
  async check(repository: ProjectRepository, mergeRequest: MergeRequest): Promise<void> {
    const source = await sourceHead({ repositories: this.#repositories, target: repository, mergeRequest });
    const target = await branchHead(repository, mergeRequest.targetBranch);
    const clean = source && target ? (await repository.git.trialMerge(target, source)).clean : false;
    mergeRequest.mergeStatus = clean ? 'can_be_merged' : 'cannot_be_merged';
    mergeRequest.fastForwardPossible = source && target ? await repository.git.isAncestor(target, source) : false;
    await this.#em.transactional(() => this.#store.save({ mergeRequest, events: [], actor: null }));
  }

  /** Checks an open merge request whose status is unchecked (single reads compute it; lists never wait). */
  async checkIfUnchecked(repository: ProjectRepository, mergeRequest: MergeRequest): Promise<void> {
    if (mergeRequest.state === 'opened' && mergeRequest.mergeStatus === 'unchecked') await this.check(repository, mergeRequest);
  }

  /** Computes `merge_status` of the listed merge requests that are unchecked (`with_merge_status_recheck`), in the background. */
  recheckLater(repository: ProjectRepository, mergeRequests: MergeRequest[]): void {
    const unchecked = mergeRequests.filter((mergeRequest) => mergeRequest.state === 'opened' && mergeRequest.mergeStatus === 'unchecked');
    for (const mergeRequest of unchecked) {
      this.check(repository, mergeRequest).catch((error: unknown) =>
        this.#logger.error({ err: error, mergeRequestId: mergeRequest.id }, 'merge status check failed'),
      );
    }
  }

  /** Commits the target has that the source lacks (GitLab's `diverged_commits_count`). */
  async divergedCommitsCount(repository: ProjectRepository, mergeRequest: MergeRequest): Promise<number> {
    const source = await sourceHead({ repositories: this.#repositories, target: repository, mergeRequest });
    const target = await branchHead(repository, mergeRequest.targetBranch);
    if (!source || !target) return 0;
    return repository.git.commitCount({ head: target, excluded: [source] });
  }
}
