import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import { reviewEvents } from '@platform/review-client';
import type { IssuableHistory } from '../core/issuable-history.ts';
import type { FileDiff, GitCommit } from '../repositories/git-repository.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import type { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import { close, mergeRequestEventData } from './merge-request-state.ts';
import type { MergeRequestScope } from './merge-request-refs.ts';
import type { Mergeability } from './mergeability.ts';
import type { MergeRequestFilter, MergeRequestOrder, MergeRequestStore } from './merge-requests-store.ts';

/** GitLab's `merge_error` once a rebase stopped on conflicts. */
export const REBASE_ERROR = 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.';
/** A rebase that began this long ago is taken for one whose replica stopped: another may start. */
export const REBASE_TIMEOUT_MS = 10 * 60_000;

/** Whether a rebase of the merge request's source runs now (one that began too long ago stopped with its replica). */
export function rebaseInProgress(mergeRequest: MergeRequest, now = new Date()): boolean {
  return !!mergeRequest.rebaseStartedAt && now.getTime() - mergeRequest.rebaseStartedAt.getTime() < REBASE_TIMEOUT_MS;
}

/**
 * Merge requests as other features read them (by iid, listed, their diff versions), and the small
 * changes that are no operation of their own: deletion, time tracking, closing those of a fork that
 * left its network. Creating, updating, merging, rebasing and refreshing on push have their own services.
 */
export class MergeRequestsService {
  readonly #em: EntityManager;
  readonly #store: MergeRequestStore;
  readonly #mergeability: Mergeability;
  readonly #history: IssuableHistory;

  constructor(options: { em: EntityManager; store: MergeRequestStore; mergeability: Mergeability; history: IssuableHistory }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#mergeability = options.mergeability;
    this.#history = options.history;
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
    await this.#mergeability.checkIfUnchecked(scope.repository, found);
    return found;
  }

  /** Every user some merge request names: where usernames of list filters are looked for. */
  involvedUserIds(): Promise<number[]> {
    return this.#store.involvedUserIds();
  }

  list(options: { filter: MergeRequestFilter; order: MergeRequestOrder; offset: number; limit: number }) {
    return this.#store.list(options);
  }

  /** The open merge requests into any of these branches of the project. */
  openTargeting(projectId: number, branches: string[]): Promise<MergeRequest[]> {
    return this.#store.openByTarget(projectId, branches);
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

  async delete(projectId: number, iid: number): Promise<void> {
    const mergeRequest = await this.get(projectId, iid);
    await this.#em.transactional(() => this.#store.delete(mergeRequest.id));
  }

  /** Sets the time estimate (seconds; 0 resets it). */
  async setTimeEstimate(mergeRequest: MergeRequest, caller: AuthenticatedCaller, seconds: number): Promise<MergeRequest> {
    mergeRequest.timeEstimate = seconds;
    mergeRequest.updatedAt = new Date();
    await this.#em.transactional(() =>
      this.#store.save({
        mergeRequest,
        events: [reviewEvents.mergeRequestUpdated.event(mergeRequestEventData(mergeRequest))],
        actor: actorOf(caller),
      }),
    );
    return mergeRequest;
  }

  /** Adds time spent (negative subtracts), or takes it all back; FieldValidationError, as GitLab, when more is subtracted than was spent. */
  async spendTime(mergeRequest: MergeRequest, caller: AuthenticatedCaller, seconds: number | 'reset'): Promise<MergeRequest> {
    const changed = await this.#em.transactional(() =>
      this.#store.spendTime({
        id: mergeRequest.id,
        seconds,
        event: (updated) => reviewEvents.mergeRequestUpdated.event(mergeRequestEventData(updated)),
        actor: actorOf(caller),
      }),
    );
    if (!changed) throw new FieldValidationError({ time_spent: ['Time to subtract exceeds the total time spent'] });
    return changed;
  }

  /**
   * Closes the open merge requests from a fork into other projects once the fork left its network
   * (unlinked or deleted), as GitLab's unlinking does; they stay readable from their projects,
   * whose repositories keep their commits. A close nobody made has no user to show in the history.
   */
  async closeFromFork(options: {
    forkProjectId: number;
    actor: EventActor | null;
    /** What else closing one does, in its transaction (a merge set to happen when the pipeline succeeds is aborted). */
    whenClosed: (mergeRequest: MergeRequest) => Promise<void>;
  }): Promise<void> {
    const { actor } = options;
    for (const mergeRequest of await this.#store.openFromFork(options.forkProjectId)) {
      const at = new Date();
      close(mergeRequest, { closedById: actor?.id ?? null, at });
      await this.#em.transactional(async () => {
        await this.#store.save({
          mergeRequest,
          events: [
            reviewEvents.mergeRequestClosed.event(mergeRequestEventData(mergeRequest)),
            reviewEvents.mergeRequestUpdated.event(mergeRequestEventData(mergeRequest)),
          ],
          actor,
        });
        if (actor) await this.#history({ type: 'MergeRequest', issuable: mergeRequest, transition: 'closed', actor, at });
        await options.whenClosed(mergeRequest);
      });
    }
  }
}
