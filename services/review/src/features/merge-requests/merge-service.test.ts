import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@platform/db';
import { ConflictError, ForbiddenError, MethodNotAllowedError, NotAcceptableError, UnauthorizedError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import { createLogger } from '@platform/logger';
import { fakeTransactions, userCaller } from '@platform/testing';
import type { IssuableChange } from '../core/issuable-history.ts';
import { runGit } from '../repositories/git-command.ts';
import { GitRepository } from '../repositories/git-repository.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import { CreateMergeRequestService } from './create-merge-request-service.ts';
import { FakeMergeRequestStore } from './fake-merge-requests-store.ts';
import { MergeRequestVersions } from './merge-request-versions.ts';
import { Mergeability } from './mergeability.ts';
import { MergeService, type MergeBranchRules, type MergeRepositories } from './merge-service.ts';
import { RebaseService } from './rebase-service.ts';
import { UpdateMergeRequestService } from './update-merge-request-service.ts';

// Real git in a temporary directory, merge requests in a fake store: no PostgreSQL, no Kafka.
let root: string;
let work: string;
let repository: ProjectRepository;
const identity = ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com'];
const logger = createLogger({ name: 'merge-service-test', level: 'silent' });
const author = userCaller(2, 'ada');
const developer = { ...userCaller(3, 'dev'), name: 'Dev' };
const project = {
  id: 10,
  accessLevel: 30,
  isAdmin: false,
  mergeMethod: 'merge',
  webUrl: 'http://gitlab.example.com/group/project',
  pathWithNamespace: 'group/project',
} as ProjectAccess;

async function commitOn(branch: string, file: string, content: string): Promise<string> {
  await runGit(['-C', work, 'checkout', '-q', '-B', branch, `origin/${branch}`]).catch(() =>
    runGit(['-C', work, 'checkout', '-q', '-B', branch]),
  );
  writeFileSync(path.join(work, file), content);
  await runGit(['-C', work, 'add', file]);
  await runGit(['-C', work, ...identity, 'commit', '-q', '-m', `${file} on ${branch}`]);
  await runGit(['-C', work, 'push', '-q', repository.git.path, `${branch}:refs/heads/${branch}`]);
  await runGit(['-C', work, 'fetch', '-q', repository.git.path, `+refs/heads/*:refs/remotes/origin/*`]);
  return (await runGit(['-C', work, 'rev-parse', 'HEAD'])).stdout.trim();
}

/** Every push a merge makes runs at once: the fake holds no lock and records nothing. */
const repositories: MergeRepositories = { changeRefs: (_repository, _caller, change) => change(), find: async () => null };
/** No protected branches: developers merge. */
const protectedBranches: MergeBranchRules = {
  list: async () => [],
  actorOf: async (options) => ({ accessLevel: options.accessLevel, isAdmin: options.isAdmin, userId: options.userId }),
};

/** An automatic merge aborted through updates: which merge request, why and by whom. */
interface AbortedAutoMerge {
  iid: number;
  reason: string;
  by: string;
}

function services(
  options: {
    approved?: boolean;
    merged?: number[];
    pipelineStatus?: string;
    discussionsResolved?: boolean;
    aborted?: AbortedAutoMerge[];
  } = {},
) {
  const store = new FakeMergeRequestStore();
  const em = fakeTransactions<EntityManager>();
  const mergeability = new Mergeability({ em, store, repositories, logger });
  const versions = new MergeRequestVersions({ em, store, listeners: [] });
  const approversOverridable = async () => true;
  // What each change wrote to the merge request's history, in order.
  const history: IssuableChange[] = [];
  const recordHistory = async (change: IssuableChange) => {
    history.push(change);
  };
  const merges = new MergeService({
    em,
    store,
    history: recordHistory,
    repositories,
    protectedBranches,
    isApproved: async () => options.approved ?? true,
    headPipelineStatus: async () => options.pipelineStatus ?? null,
    discussionsResolved: async () => options.discussionsResolved ?? true,
    afterMerge: [
      async ({ mergeRequest }) => {
        options.merged?.push(mergeRequest.iid);
      },
    ],
    logger,
  });
  return {
    store,
    history,
    creation: new CreateMergeRequestService({ em, store, versions, mergeability, approversOverridable, history: recordHistory }),
    updates: new UpdateMergeRequestService({
      em,
      store,
      repositories,
      versions,
      mergeability,
      approversOverridable,
      history: recordHistory,
      autoMerges: {
        abort: async ({ mergeRequest, actor, reason }) => {
          options.aborted?.push({ iid: mergeRequest.iid, reason, by: actor?.username ?? 'the user who set it' });
        },
      },
      // Closing references are the issues feature's (its integration tests).
      closingIssues: { refresh: async () => undefined },
    }),
    merges,
  };
}

const scope = (onlyAllowMergeIfPipelineSucceeds = false) => ({ project: { ...project, onlyAllowMergeIfPipelineSucceeds }, repository });
const open = (created: ReturnType<typeof services>, sourceBranch: string, title = `Merge ${sourceBranch}`) =>
  created.creation.create(scope(), author, {
    targetNamespaceIds: [1],
    sourceRepository: repository,
    sourceBranch,
    targetBranch: 'main',
    title,
    description: '',
    assigneeIds: [],
    reviewerIds: [],
    labels: [],
    milestoneId: null,
    removeSourceBranch: false,
    squash: false,
    allowCollaboration: false,
  });

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'merge-service-'));
  const git = new GitRepository(path.join(root, 'project.git'));
  await git.create('main');
  repository = { projectId: project.id, readOnly: false, git };
  work = path.join(root, 'work');
  await runGit(['init', '-q', '--initial-branch=main', work]);
  await commitOn('main', 'README.md', 'hello\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('merge requests on fakes', () => {
  let merged: number[];
  beforeEach(() => {
    merged = [];
  });

  it('opens a mergeable merge request with its first version, and merges it with a merge commit of both heads', async () => {
    const head = await commitOn('feature', 'feature.txt', 'new\n');
    const target = (await runGit(['-C', work, 'rev-parse', 'origin/main'])).stdout.trim();
    const created = services({ merged });
    const mergeRequest = await open(created, 'feature');
    expect(mergeRequest).toMatchObject({ state: 'opened', mergeStatus: 'can_be_merged', fastForwardPossible: true, headSha: head });
    expect(await created.store.versions(mergeRequest.id)).toMatchObject([{ headCommitSha: head, startCommitSha: target }]);

    const result = await created.merges.merge(scope(), developer, mergeRequest.iid, {});
    expect(result).toMatchObject({ state: 'merged', mergedById: developer.userId, headSha: head });
    const parents = (await runGit(['-C', repository.git.path, 'rev-list', '--parents', '-n', '1', 'refs/heads/main'])).stdout
      .trim()
      .split(' ');
    expect(parents).toEqual([result.mergeCommitSha, target, head]);
    expect(created.store.events.map((event) => event.type)).toEqual(['review.merge_request.created', 'review.merge_request.merged']);
    expect(created.history).toMatchObject([
      { type: 'MergeRequest', issuable: { iid: mergeRequest.iid }, actor: { username: 'ada' } },
      { type: 'MergeRequest', transition: 'merged', actor: { username: 'dev' } },
    ]);
    expect(merged).toEqual([mergeRequest.iid]);
  });

  it('sees a conflict with the target as cannot_be_merged, and refuses to merge it as not acceptable (406)', async () => {
    await commitOn('conflicting', 'README.md', 'theirs\n');
    await commitOn('main', 'README.md', 'ours\n');
    const created = services({ merged });
    const mergeRequest = await open(created, 'conflicting');
    expect(mergeRequest.mergeStatus).toBe('cannot_be_merged');
    await expect(created.merges.merge(scope(), developer, mergeRequest.iid, {})).rejects.toEqual(
      new NotAcceptableError('Branch cannot be merged'),
    );
    expect((await created.store.find(project.id, mergeRequest.iid))?.state).toBe('opened');
    expect(merged).toEqual([]);
  });

  it('refuses as not allowed (405) to merge a draft, a closed merge request and one that lacks approvals', async () => {
    await commitOn('drafted', 'draft.txt', 'draft\n');
    const created = services({ merged });
    const draft = await open(created, 'drafted', 'Draft: not yet');
    await expect(created.merges.merge(scope(), developer, draft.iid, {})).rejects.toEqual(new MethodNotAllowedError());

    await created.updates.update(scope(), author, draft.iid, { title: 'Ready', stateEvent: 'close' });
    await expect(created.merges.merge(scope(), developer, draft.iid, {})).rejects.toEqual(new MethodNotAllowedError());

    const unapproved = services({ approved: false, merged });
    const waiting = await open(unapproved, 'drafted', 'Ready');
    await expect(unapproved.merges.merge(scope(), developer, waiting.iid, {})).rejects.toEqual(new MethodNotAllowedError());
    expect(merged).toEqual([]);
  });

  it('waits for a successful head pipeline when the project only merges after one, and refuses a reporter with 401', async () => {
    await commitOn('piped', 'piped.txt', 'piped\n');
    const running = services({ merged, pipelineStatus: 'running' });
    const waiting = await open(running, 'piped');
    await expect(running.merges.merge(scope(true), developer, waiting.iid, {})).rejects.toEqual(new MethodNotAllowedError());
    const none = services({ merged });
    const withoutPipeline = await open(none, 'piped');
    await expect(none.merges.merge(scope(true), developer, withoutPipeline.iid, {})).rejects.toEqual(new MethodNotAllowedError());
    await expect(
      none.merges.merge({ project: { ...project, accessLevel: 20 }, repository }, developer, withoutPipeline.iid, {}),
    ).rejects.toEqual(new UnauthorizedError());
    expect(merged).toEqual([]);
    const passed = services({ merged, pipelineStatus: 'success' });
    const green = await open(passed, 'piped');
    expect(await passed.merges.merge(scope(true), developer, green.iid, {})).toMatchObject({ state: 'merged' });
  });

  it('merges past a skipped head pipeline only where the project allows merging on skipped pipelines', async () => {
    await commitOn('skipped', 'skipped.txt', 'skipped\n');
    const skipped = services({ merged, pipelineStatus: 'skipped' });
    const mergeRequest = await open(skipped, 'skipped');
    await expect(skipped.merges.merge(scope(true), developer, mergeRequest.iid, {})).rejects.toEqual(new MethodNotAllowedError());
    const allowing = { ...scope(true), project: { ...scope(true).project, allowMergeOnSkippedPipeline: true } };
    expect(await skipped.merges.merge(allowing, developer, mergeRequest.iid, {})).toMatchObject({ state: 'merged' });
    expect(merged).toEqual([mergeRequest.iid]);
  });

  it('waits for every resolvable thread resolved when the project asks for it, as GitLab refuses with 405', async () => {
    await commitOn('threads', 'threads.txt', 'threads\n');
    const unresolved = services({ merged, discussionsResolved: false });
    const discussed = await open(unresolved, 'threads');
    const strict = { project: { ...project, onlyAllowMergeIfAllDiscussionsAreResolved: true }, repository };
    await expect(unresolved.merges.merge(strict, developer, discussed.iid, {})).rejects.toEqual(new MethodNotAllowedError());
    expect(merged).toEqual([]);
    expect(await unresolved.merges.merge(scope(), developer, discussed.iid, {})).toMatchObject({ state: 'merged' });
    const resolved = services({ merged, discussionsResolved: true });
    await commitOn('threads', 'threads.txt', 'threads again\n');
    const settled = await open(resolved, 'threads');
    expect(await resolved.merges.merge(strict, developer, settled.iid, {})).toMatchObject({ state: 'merged' });
  });

  it('refuses a stale sha as a conflict (409) and an unknown merge request with 404', async () => {
    await commitOn('stale', 'stale.txt', 'stale\n');
    const created = services({ merged });
    const mergeRequest = await open(created, 'stale');
    await expect(created.merges.merge(scope(), developer, mergeRequest.iid, { sha: '0'.repeat(40) })).rejects.toEqual(
      new ConflictError('SHA does not match HEAD of source branch'),
    );
    await expect(created.merges.merge(scope(), developer, 99, {})).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('closes and reopens through updates, with their events, and reopening rechecks the merge status', async () => {
    await commitOn('toggled', 'toggled.txt', 'toggled\n');
    const created = services({ merged });
    const mergeRequest = await open(created, 'toggled');
    const closed = await created.updates.update(scope(), author, mergeRequest.iid, { stateEvent: 'close' });
    expect(closed).toMatchObject({ state: 'closed', closedById: author.userId });
    const closedAgain = await created.updates.update(scope(), author, mergeRequest.iid, { stateEvent: 'close' });
    expect(closedAgain.state).toBe('closed');
    const reopened = await created.updates.update(scope(), author, mergeRequest.iid, { stateEvent: 'reopen' });
    expect(reopened).toMatchObject({ state: 'opened', closedById: null, mergeStatus: 'can_be_merged' });
    expect(created.store.events.map((event) => event.type)).toEqual([
      'review.merge_request.created',
      'review.merge_request.closed',
      'review.merge_request.updated',
      'review.merge_request.updated',
      'review.merge_request.reopened',
      'review.merge_request.updated',
    ]);
    expect(created.history.map((change) => change.transition)).toEqual([undefined, 'closed', undefined, 'reopened']);
  });

  it("aborts a merge set to happen when the pipeline succeeds on closing the merge request or changing its target, with GitLab's reasons", async () => {
    await commitOn('aborted', 'aborted.txt', 'aborted\n');
    await commitOn('release', 'release.txt', 'release\n');
    const aborted: AbortedAutoMerge[] = [];
    const created = services({ merged, aborted });
    const retargeted = await open(created, 'aborted');
    await created.updates.update(scope(), author, retargeted.iid, { title: 'Renamed' });
    expect(aborted).toEqual([]);
    await created.updates.update(scope(), author, retargeted.iid, { targetBranch: 'release' });
    expect(aborted).toEqual([{ iid: retargeted.iid, reason: 'target branch was changed', by: 'ada' }]);
    await created.updates.update(scope(), developer, retargeted.iid, { targetBranch: 'main', stateEvent: 'close' });
    expect(aborted.at(-1)).toEqual({ iid: retargeted.iid, reason: 'merge request was closed', by: 'dev' });
    await created.updates.update(scope(), developer, retargeted.iid, { stateEvent: 'close' });
    expect(aborted).toHaveLength(2);
  });

  it('refuses to merge in an archived project with 401 (merging needs push_code, which archiving prevents), and to rebase there with 403', async () => {
    await commitOn('shelved', 'shelved.txt', 'shelved\n');
    const created = services({ merged });
    const mergeRequest = await open(created, 'shelved');
    const archived = { ...scope(), project: { ...project, archived: true } };
    await expect(created.merges.merge(archived, developer, mergeRequest.iid, {})).rejects.toEqual(new UnauthorizedError());
    const rebases = new RebaseService({ store: created.store, repositories, protectedBranches, logger });
    await expect(rebases.rebase(archived, developer, mergeRequest.iid)).rejects.toEqual(new ForbiddenError('Cannot push to source branch'));
    expect(await created.store.find(project.id, mergeRequest.iid)).toMatchObject({ state: 'opened', rebaseStartedAt: null });
    expect(merged).toEqual([]);
  });
});
