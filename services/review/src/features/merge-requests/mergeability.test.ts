import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from '@platform/db';
import type { Logger } from '@platform/logger';
import { fakeTransactions } from '@platform/testing';
import type { GitRepository } from '../repositories/git-repository.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import { FakeMergeRequestStore } from './fake-merge-requests-store.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import type { NewMergeRequest } from './merge-requests-store.ts';
import { Mergeability } from './mergeability.ts';

/**
 * A repository's history in memory: each commit names its parent, branches name commits, and a
 * trial merge conflicts for the pairs listed. Only what mergeability asks of git.
 */
class FakeGit {
  readonly parents = new Map<string, string | null>();
  readonly branches = new Map<string, string>();
  readonly conflicting = new Set<string>();
  readonly fetched: Array<{ sha: string; into: string }> = [];
  trialMerges = 0;

  commit(sha: string, parent: string | null): this {
    this.parents.set(sha, parent);
    return this;
  }

  #history(head: string): string[] {
    const seen: string[] = [];
    for (let sha: string | null | undefined = head; sha; sha = this.parents.get(sha)) seen.push(sha);
    return seen;
  }

  async resolveCommit(revision: string): Promise<string | null> {
    const branch = this.branches.get(revision.replace(/^refs\/heads\//, ''));
    if (revision.startsWith('refs/heads/')) return branch ?? null;
    return this.parents.has(revision) ? revision : null;
  }

  async trialMerge(ours: string, theirs: string) {
    this.trialMerges += 1;
    return { clean: !this.conflicting.has(`${ours}..${theirs}`), tree: 'tree' };
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    return this.#history(descendant).includes(ancestor);
  }

  async commitCount(options: { head: string; excluded: string[] }): Promise<number> {
    const excluded = new Set(options.excluded.flatMap((sha) => this.#history(sha)));
    return this.#history(options.head).filter((sha) => !excluded.has(sha)).length;
  }

  async fetchCommit(options: { source: FakeGit; sha: string; into: string }): Promise<void> {
    for (const sha of options.source.#history(options.sha)) this.parents.set(sha, options.source.parents.get(sha) ?? null);
    this.fetched.push({ sha: options.sha, into: options.into });
  }
}

const repositoryOf = (projectId: number, git: FakeGit): ProjectRepository => ({
  projectId,
  readOnly: false,
  git: git as unknown as GitRepository,
});

/** `main` at m1; `feature` adds f1 on it; `behind` branched from m0 before m1. */
function history(): FakeGit {
  const git = new FakeGit().commit('m0', null).commit('m1', 'm0').commit('f1', 'm1').commit('b1', 'm0');
  git.branches.set('main', 'm1').set('feature', 'f1').set('behind', 'b1');
  return git;
}

function loggerRecording(errors: unknown[]): Logger {
  return { error: (details: unknown) => errors.push(details) } as unknown as Logger;
}

async function setUp(options: { git?: FakeGit; forks?: Map<number, ProjectRepository>; errors?: unknown[] } = {}) {
  const git = options.git ?? history();
  const repository = repositoryOf(10, git);
  const store = new FakeMergeRequestStore();
  const mergeability = new Mergeability({
    em: fakeTransactions<EntityManager>(),
    store,
    repositories: { find: async (projectId) => options.forks?.get(projectId) ?? null },
    logger: loggerRecording(options.errors ?? []),
  });
  const open = async (changes: Partial<MergeRequest> = {}) =>
    store.create({
      mergeRequest: {
        projectId: 10,
        sourceProjectId: 10,
        sourceBranch: 'feature',
        targetBranch: 'main',
        state: 'opened',
        mergeStatus: 'unchecked',
        fastForwardPossible: false,
        ...changes,
      } as NewMergeRequest,
      event: () => ({ topic: 'review', type: 'review.merge_request.created', aggregateId: 10, data: {} }),
      actor: null,
    });
  const stored = async (mergeRequest: MergeRequest) => store.find(10, mergeRequest.iid);
  return { git, repository, store, mergeability, open, stored };
}

describe('Mergeability', () => {
  it('saves can_be_merged, and whether a fast-forward is possible, when the trial merge is clean', async () => {
    const { repository, mergeability, open, stored } = await setUp();
    const ahead = await open();
    await mergeability.check(repository, ahead);
    expect(await stored(ahead)).toMatchObject({ mergeStatus: 'can_be_merged', fastForwardPossible: true });

    const behind = await open({ sourceBranch: 'behind' });
    await mergeability.check(repository, behind);
    expect(await stored(behind)).toMatchObject({ mergeStatus: 'can_be_merged', fastForwardPossible: false });
  });

  it('saves cannot_be_merged when the trial merge conflicts', async () => {
    const { git, repository, mergeability, open, stored } = await setUp();
    git.conflicting.add('m1..b1');
    const mergeRequest = await open({ sourceBranch: 'behind' });
    await mergeability.check(repository, mergeRequest);
    expect(await stored(mergeRequest)).toMatchObject({ mergeStatus: 'cannot_be_merged', fastForwardPossible: false });
  });

  it('saves cannot_be_merged without a trial when the source or the target branch is gone', async () => {
    const { git, repository, mergeability, open, stored } = await setUp();
    const gone = await open({ sourceBranch: 'deleted' });
    await mergeability.check(repository, gone);
    const noTarget = await open({ targetBranch: 'deleted' });
    await mergeability.check(repository, noTarget);
    expect(await stored(gone)).toMatchObject({ mergeStatus: 'cannot_be_merged', fastForwardPossible: false });
    expect(await stored(noTarget)).toMatchObject({ mergeStatus: 'cannot_be_merged', fastForwardPossible: false });
    expect(git.trialMerges).toBe(0);
  });

  it("fetches a fork's source head into the merge request's ref before the trial, and refuses once the fork is gone", async () => {
    const fork = new FakeGit().commit('m0', null).commit('m1', 'm0').commit('x1', 'm1');
    fork.branches.set('feature', 'x1');
    const { git, repository, mergeability, open, stored } = await setUp({ forks: new Map([[20, repositoryOf(20, fork)]]) });
    const fromFork = await open({ sourceProjectId: 20 });
    await mergeability.check(repository, fromFork);
    expect(git.fetched).toEqual([{ sha: 'x1', into: `refs/merge-requests/${fromFork.iid}/head` }]);
    expect(await stored(fromFork)).toMatchObject({ mergeStatus: 'can_be_merged', fastForwardPossible: true });

    const orphaned = await open({ sourceProjectId: 21 });
    await mergeability.check(repository, orphaned);
    expect(await stored(orphaned)).toMatchObject({ mergeStatus: 'cannot_be_merged' });
  });

  it('checks on a single read only open merge requests whose status is unchecked', async () => {
    const { git, repository, mergeability, open, stored } = await setUp();
    const closed = await open({ state: 'closed' });
    const checked = await open({ mergeStatus: 'cannot_be_merged' });
    await mergeability.checkIfUnchecked(repository, closed);
    await mergeability.checkIfUnchecked(repository, checked);
    expect(git.trialMerges).toBe(0);
    expect((await stored(checked))?.mergeStatus).toBe('cannot_be_merged');

    const unchecked = await open();
    await mergeability.checkIfUnchecked(repository, unchecked);
    expect((await stored(unchecked))?.mergeStatus).toBe('can_be_merged');
  });

  it('rechecks a list in the background, logging a check that fails instead of failing the list', async () => {
    const errors: unknown[] = [];
    const { git, repository, mergeability, open, stored } = await setUp({ errors });
    const first = await open();
    const broken = await open({ sourceBranch: 'behind' });
    git.trialMerge = async (ours: string, theirs: string) => {
      if (theirs === 'b1') throw new Error('git died');
      return { clean: ours !== theirs, tree: 'tree' };
    };
    mergeability.recheckLater(repository, [first, broken, await open({ state: 'merged' })]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await stored(first))?.mergeStatus).toBe('can_be_merged');
    expect((await stored(broken))?.mergeStatus).toBe('unchecked');
    expect(errors).toEqual([expect.objectContaining({ mergeRequestId: broken.id })]);
  });

  it('counts the commits the target has that the source lacks, none when a branch is gone', async () => {
    const { repository, mergeability, open } = await setUp();
    expect(await mergeability.divergedCommitsCount(repository, await open({ sourceBranch: 'behind' }))).toBe(1);
    expect(await mergeability.divergedCommitsCount(repository, await open())).toBe(0);
    expect(await mergeability.divergedCommitsCount(repository, await open({ sourceBranch: 'deleted' }))).toBe(0);
  });
});
