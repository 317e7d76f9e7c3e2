import type { EntityManager } from '@platform/db';
import type { RefChange } from '../repositories/ref-changes.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { BRANCH_PREFIX, branchHead, sourceHead } from './merge-request-refs.ts';
import type { MergeRequestVersions } from './merge-request-versions.ts';
import type { Mergeability } from './mergeability.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';

/** What refreshing asks of the repositories: a project's own, made on first use, and a fork's. */
export type RefreshRepositories = Pick<RepositoriesService, 'ensure' | 'find'>;

/** Brings open merge requests up to date with a push (GitLab's `MergeRequests::RefreshService`). */
export class RefreshService {
  readonly #em: EntityManager;
  readonly #store: MergeRequestStore;
  readonly #repositories: RefreshRepositories;
  readonly #versions: MergeRequestVersions;
  readonly #mergeability: Mergeability;

  constructor(options: {
    em: EntityManager;
    store: MergeRequestStore;
    repositories: RefreshRepositories;
    versions: MergeRequestVersions;
    mergeability: Mergeability;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#repositories = options.repositories;
    this.#versions = options.versions;
    this.#mergeability = options.mergeability;
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
      const source = await sourceHead({ repositories: this.#repositories, target, mergeRequest });
      const targetHead = await branchHead(target, mergeRequest.targetBranch);
      if (!source || !targetHead || source === mergeRequest.headSha) continue;
      mergeRequest.headSha = source;
      mergeRequest.updatedAt = new Date();
      await this.#versions.record({ repository: target, mergeRequest, heads: { sourceHead: source, targetHead }, cause: 'pushed' });
      await this.#mergeability.check(target, mergeRequest);
    }
    const targets = await this.#store.openByTarget(projectId, names);
    for (const mergeRequest of targets) {
      mergeRequest.mergeStatus = 'unchecked';
      await this.#em.transactional(() => this.#store.save({ mergeRequest, events: [], actor: null }));
    }
    this.#mergeability.recheckLater(repository, targets);
  }
}
