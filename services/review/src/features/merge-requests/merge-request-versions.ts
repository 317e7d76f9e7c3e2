import type { EntityManager } from '@platform/db';
import { ZERO_SHA } from '../repositories/git-repository.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import type { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import { headRef } from './merge-request-refs.ts';
import type { MergeRequestStore } from './merge-requests-store.ts';

/** Why a merge request got a new diff version: it was created, its source moved, or it now targets another branch. */
export type VersionCause = 'created' | 'pushed' | 'retargeted';

/** What happens once a merge request got a new diff version. */
export type VersionListener = (options: {
  mergeRequest: MergeRequest;
  repository: ProjectRepository;
  version: MergeRequestDiff;
  cause: VersionCause;
}) => Promise<void>;

/** Records diff versions (base, start and head commits; the head kept by the merge request's ref) and tells the listeners declared at construction. */
export class MergeRequestVersions {
  readonly #em: EntityManager;
  readonly #store: MergeRequestStore;
  readonly #listeners: VersionListener[];

  constructor(options: { em: EntityManager; store: MergeRequestStore; listeners: VersionListener[] }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#listeners = options.listeners;
  }

  async record(options: {
    repository: ProjectRepository;
    mergeRequest: MergeRequest;
    heads: { sourceHead: string; targetHead: string };
    cause: VersionCause;
  }): Promise<void> {
    const { repository, mergeRequest, heads } = options;
    const base = (await repository.git.mergeBase(heads.targetHead, heads.sourceHead)) ?? heads.targetHead;
    const files = await repository.git.diff(base, heads.sourceHead);
    await repository.git.updateRef(
      headRef(mergeRequest),
      heads.sourceHead,
      (await repository.git.resolveCommit(headRef(mergeRequest))) ?? ZERO_SHA,
    );
    const version = await this.#em.transactional(async () => {
      const added = await this.#store.addVersion({
        mergeRequestId: mergeRequest.id,
        baseCommitSha: base,
        startCommitSha: heads.targetHead,
        headCommitSha: heads.sourceHead,
        filesCount: files.length,
        createdAt: new Date(),
      });
      await this.#store.save({ mergeRequest, events: [], actor: null });
      return added;
    });
    for (const listener of this.#listeners) await listener({ mergeRequest, repository, version, cause: options.cause });
  }
}
