/**
 * Merge methods through the real gateway, on repositories the git CLI pushes to over HTTP: a
 * project's `merge_method` (`ff`, `rebase_merge`) decides whether a merge writes a merge commit and
 * whether a source behind its target may be merged. One platform for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
import { addProjectMember, createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

let git: Git;

/** Writes `content` to `file` in the clone and commits it; answers the new head. */
async function commit(clone: string, file: string, content: string, message: string): Promise<string> {
  writeFileSync(path.join(clone, file), content);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
  return (await git(['rev-parse', 'HEAD'], clone)).output.trim();
}

/** A project of root's with a `main` branch pushed from a fresh clone, merged with `mergeMethod`. */
async function projectWithMain(name: string, mergeMethod: string) {
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name, path: name, visibility: 'private' });
  expect(project.status).toBe(201);
  const changed = await gateway.put(`/api/v4/projects/${project.body.id}`).set(asRoot).send({ merge_method: mergeMethod });
  expect(changed.body.merge_method).toBe(mergeMethod);
  const cloned = await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, `root/${name}`), name]);
  expect(cloned).toMatchObject({ code: 0 });
  const clone = path.join(work, name);
  await commit(clone, 'app.txt', 'one\ntwo\nthree\n', 'Start');
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
  return { id: project.body.id as number, clone, base: `/api/v4/projects/${project.body.id}/merge_requests` };
}

/** Branches `branch` off origin/main, commits a file on it and pushes it. */
async function pushBranch(clone: string, branch: string, file: string): Promise<string> {
  expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
  expect((await git(['checkout', '-q', '-B', branch, 'origin/main'], clone)).code).toBe(0);
  const head = await commit(clone, file, `${file}\n`, `Add ${file}`);
  expect((await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], clone)).code).toBe(0);
  return head;
}

/** Moves main on by one commit pushed from a side checkout, leaving the clone's branch where it was. */
async function advanceMain(clone: string, file: string): Promise<string> {
  const branch = (await git(['rev-parse', '--abbrev-ref', 'HEAD'], clone)).output.trim();
  expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
  expect((await git(['checkout', '-q', '-B', 'main', 'origin/main'], clone)).code).toBe(0);
  const head = await commit(clone, file, `${file}\n`, `Main adds ${file}`);
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
  expect((await git(['checkout', '-q', branch], clone)).code).toBe(0);
  return head;
}

const mainOf = async (clone: string) => {
  expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
  return (await git(['rev-parse', 'origin/main'], clone)).output.trim();
};

beforeAll(async () => {
  work = createWorkDir('merge-methods');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('fast-forward merges (merge_method ff)', () => {
  let project: Awaited<ReturnType<typeof projectWithMain>>;

  beforeAll(async () => {
    project = await projectWithMain('ff-shop', 'ff');
  });

  it('moves the target to the source head without a merge commit', async () => {
    const head = await pushBranch(project.clone, 'feature/fast', 'fast.txt');
    const created = await gateway
      .post(project.base)
      .set(asRoot)
      .send({ source_branch: 'feature/fast', target_branch: 'main', title: 'Fast' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'mergeable' });

    const merged = await gateway.put(`${project.base}/${created.body.iid}/merge`).set(asRoot);
    expect(merged.status).toBe(200);
    expect(gitlabSchemaErrors('merge_request.json', merged.body)).toEqual([]);
    expect(merged.body).toMatchObject({ state: 'merged', merge_commit_sha: null, sha: head });
    expect(await mainOf(project.clone)).toBe(head);
    expect((await git(['log', '--merges', '--format=%H', 'origin/main'], project.clone)).output).toBe('');
  });

  it('shows a source behind its target as need_rebase and refuses to merge it with 406, until it is rebased', async () => {
    await pushBranch(project.clone, 'feature/behind', 'behind.txt');
    const created = await gateway
      .post(project.base)
      .set(asRoot)
      .send({ source_branch: 'feature/behind', target_branch: 'main', title: 'Behind' });
    const iid = created.body.iid as number;
    const mainHead = await advanceMain(project.clone, 'moved.txt');

    const shown = await gateway.get(`${project.base}/${iid}`).set(asRoot);
    expect(shown.body).toMatchObject({ merge_status: 'can_be_merged', has_conflicts: false, detailed_merge_status: 'need_rebase' });
    const refused = await gateway.put(`${project.base}/${iid}/merge`).set(asRoot);
    expect(refused.status).toBe(406);
    expect(refused.body).toEqual({ message: 'Branch cannot be merged' });
    expect(await mainOf(project.clone)).toBe(mainHead);

    expect((await git(['rebase', '-q', 'origin/main'], project.clone)).code).toBe(0);
    expect((await git(['push', '-q', '--force', 'origin', 'HEAD:refs/heads/feature/behind'], project.clone)).code).toBe(0);
    const rebasedHead = (await git(['rev-parse', 'HEAD'], project.clone)).output.trim();
    const rebased = await gateway.get(`${project.base}/${iid}`).set(asRoot);
    expect(rebased.body).toMatchObject({ sha: rebasedHead, detailed_merge_status: 'mergeable' });
    const merged = await gateway.put(`${project.base}/${iid}/merge`).set(asRoot);
    expect(merged.status).toBe(200);
    expect(await mainOf(project.clone)).toBe(rebasedHead);
    expect((await git(['log', '--merges', '--format=%H', 'origin/main'], project.clone)).output).toBe('');
  });

  it('fast-forwards to a squash commit on the target when squashing', async () => {
    await pushBranch(project.clone, 'feature/squashed', 'one.txt');
    await commit(project.clone, 'two.txt', 'two\n', 'Add two.txt');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/squashed'], project.clone)).code).toBe(0);
    const before = await mainOf(project.clone);
    const created = await gateway
      .post(project.base)
      .set(asRoot)
      .send({ source_branch: 'feature/squashed', target_branch: 'main', title: 'Squashed', squash: true });
    const merged = await gateway.put(`${project.base}/${created.body.iid}/merge`).set(asRoot);
    expect(merged.status).toBe(200);
    expect(merged.body.merge_commit_sha).toBeNull();
    const squash = merged.body.squash_commit_sha as string;
    expect(await mainOf(project.clone)).toBe(squash);
    expect((await git(['log', '-1', '--format=%P', squash], project.clone)).output.trim()).toBe(before);
  });
});

describe('merge commits of rebased sources (merge_method rebase_merge)', () => {
  it('refuses a source behind its target with 406, and writes a merge commit once it is rebased', async () => {
    const project = await projectWithMain('rebase-shop', 'rebase_merge');
    await pushBranch(project.clone, 'feature/late', 'late.txt');
    const created = await gateway
      .post(project.base)
      .set(asRoot)
      .send({ source_branch: 'feature/late', target_branch: 'main', title: 'Late' });
    const iid = created.body.iid as number;
    await advanceMain(project.clone, 'early.txt');

    expect((await gateway.get(`${project.base}/${iid}`).set(asRoot)).body.detailed_merge_status).toBe('need_rebase');
    expect((await gateway.put(`${project.base}/${iid}/merge`).set(asRoot)).status).toBe(406);

    expect((await git(['rebase', '-q', 'origin/main'], project.clone)).code).toBe(0);
    expect((await git(['push', '-q', '--force', 'origin', 'HEAD:refs/heads/feature/late'], project.clone)).code).toBe(0);
    const sourceHead = (await git(['rev-parse', 'HEAD'], project.clone)).output.trim();
    const targetHead = await mainOf(project.clone);
    const merged = await gateway.put(`${project.base}/${iid}/merge`).set(asRoot);
    expect(merged.status).toBe(200);
    const mergeCommit = merged.body.merge_commit_sha as string;
    expect(await mainOf(project.clone)).toBe(mergeCommit);
    expect((await git(['log', '-1', '--format=%P', mergeCommit], project.clone)).output.trim()).toBe(`${targetHead} ${sourceHead}`);
  });
});

describe('rebasing a merge request (PUT .../rebase)', () => {
  let project: Awaited<ReturnType<typeof projectWithMain>>;
  let reporter: { 'PRIVATE-TOKEN': string };
  const rebaseError = 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.';

  /** The merge request once no rebase runs any more, as clients poll for it. */
  function afterRebase(iid: number): Promise<Record<string, unknown>> {
    return waitFor(
      async () => {
        const shown = await gateway.get(`${project.base}/${iid}?include_rebase_in_progress=true`).set(asRoot);
        return shown.body.rebase_in_progress === false ? (shown.body as Record<string, unknown>) : undefined;
      },
      { timeoutMs: 60_000, what: 'the rebase to end' },
    );
  }

  beforeAll(async () => {
    project = await projectWithMain('rebase-api', 'ff');
    const user = await createUserWithToken(gateway, 'rebase-reporter', {
      name: 'Reporter',
      memberships: [{ projectId: project.id, accessLevel: 20 }],
    });
    reporter = user.headers;
  });

  it('rebases the source onto the target in the background, after which the fast-forward merge succeeds', async () => {
    const oldHead = await pushBranch(project.clone, 'feature/rebased', 'rebased.txt');
    const created = await gateway
      .post(project.base)
      .set(asRoot)
      .send({ source_branch: 'feature/rebased', target_branch: 'main', title: 'Rebased' });
    const iid = created.body.iid as number;
    const mainHead = await advanceMain(project.clone, 'ahead.txt');
    const behind = await gateway
      .get(`${project.base}/${iid}?include_diverged_commits_count=true&include_rebase_in_progress=true`)
      .set(asRoot);
    expect(behind.body).toMatchObject({ detailed_merge_status: 'need_rebase', diverged_commits_count: 1, rebase_in_progress: false });

    const refused = await gateway.put(`${project.base}/${iid}/rebase`).set(reporter);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Cannot push to source branch' });
    expect((await gateway.put(`${project.base}/${iid}/rebase`).set(asRoot).send({ skip_ci: 'maybe' })).status).toBe(400);

    // Two at once: one starts the rebase, the other finds it running.
    const [first, second] = await Promise.all([
      gateway.put(`${project.base}/${iid}/rebase`).set(asRoot).send({ skip_ci: true }),
      gateway.put(`${project.base}/${iid}/rebase`).set(asRoot),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    expect((first.status === 202 ? first : second).body).toEqual({ rebase_in_progress: true });

    const rebased = await afterRebase(iid);
    expect(rebased).toMatchObject({ detailed_merge_status: 'mergeable', merge_error: null });
    expect(gitlabSchemaErrors('merge_request.json', rebased)).toEqual([]);
    expect((await git(['fetch', '-q', 'origin'], project.clone)).code).toBe(0);
    const newHead = (await git(['rev-parse', 'origin/feature/rebased'], project.clone)).output.trim();
    expect(newHead).not.toBe(oldHead);
    expect(rebased.sha).toBe(newHead);
    expect((await git(['log', '-1', '--format=%P %s', newHead], project.clone)).output.trim()).toBe(`${mainHead} Add rebased.txt`);

    const merged = await gateway.put(`${project.base}/${iid}/merge`).set(asRoot);
    expect(merged.status).toBe(200);
    expect(await mainOf(project.clone)).toBe(newHead);
    expect((await git(['log', '--merges', '--format=%H', 'origin/main'], project.clone)).output).toBe('');
  });

  it('leaves a source that conflicts with its target as it was, with merge_error set', async () => {
    expect((await git(['fetch', '-q', 'origin'], project.clone)).code).toBe(0);
    expect((await git(['checkout', '-q', '-B', 'feature/clash', 'origin/main'], project.clone)).code).toBe(0);
    const clashHead = await commit(project.clone, 'app.txt', 'ours\n', 'Change app.txt on the branch');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/clash'], project.clone)).code).toBe(0);
    const created = await gateway
      .post(project.base)
      .set(asRoot)
      .send({ source_branch: 'feature/clash', target_branch: 'main', title: 'Clash' });
    const iid = created.body.iid as number;
    expect((await git(['checkout', '-q', '-B', 'main', 'origin/main'], project.clone)).code).toBe(0);
    await commit(project.clone, 'app.txt', 'theirs\n', 'Change app.txt on main');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], project.clone)).code).toBe(0);

    const started = await gateway.put(`${project.base}/${iid}/rebase`).set(asRoot);
    expect(started.status).toBe(202);
    const failed = await afterRebase(iid);
    expect(failed).toMatchObject({ merge_error: rebaseError, sha: clashHead, merge_status: 'cannot_be_merged' });
    expect((await git(['fetch', '-q', 'origin'], project.clone)).code).toBe(0);
    expect((await git(['rev-parse', 'origin/feature/clash'], project.clone)).output.trim()).toBe(clashHead);
  });
});

describe('forks (POST /projects/:id/fork)', () => {
  it("forks a project into the caller's namespace with a copy of its repository, lists it, and unlinks it", async () => {
    const upstream = await projectWithMain('upstream-app', 'merge');
    const upstreamHead = await mainOf(upstream.clone);
    const { id: forkerId, token, headers: asForker } = await createUserWithToken(gateway, 'forker', { name: 'Forker' });
    expect((await gateway.post(`/api/v4/projects/${upstream.id}/fork`).set(asForker)).status).toBe(404);
    await addProjectMember(gateway, { projectId: upstream.id, userId: forkerId, accessLevel: 20 });

    const fork = await gateway.post(`/api/v4/projects/${encodeURIComponent('root/upstream-app')}/fork`).set(asForker);
    expect(fork.status).toBe(201);
    // GitLab's project.json is the basic project, as `forked_from_project` shows it.
    expect(gitlabSchemaErrors('project.json', fork.body.forked_from_project)).toEqual([]);
    expect(fork.body).toMatchObject({
      path_with_namespace: 'forker/upstream-app',
      import_status: 'finished',
      forked_from_project: expect.objectContaining({ id: upstream.id, path_with_namespace: 'root/upstream-app' }),
    });
    const again = await gateway.post(`/api/v4/projects/${upstream.id}/fork`).set(asForker);
    expect(again.status).toBe(409);
    expect(Object.values(again.body.message)).toEqual([['has already been taken']]);
    const elsewhere = await gateway.post(`/api/v4/projects/${upstream.id}/fork`).set(asForker).send({ namespace_path: 'nowhere' });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ message: '404 Target Namespace Not Found' });

    // The fork's repository is a copy of the upstream's, and takes pushes of its own.
    expect((await git(['clone', '-q', gitRemote(platform.url, token, 'forker/upstream-app'), 'forked-app'])).code).toBe(0);
    const forkClone = path.join(work, 'forked-app');
    expect((await git(['rev-parse', 'HEAD'], forkClone)).output.trim()).toBe(upstreamHead);
    await commit(forkClone, 'fork.txt', 'fork\n', 'Work in the fork');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/forked'], forkClone)).code).toBe(0);
    expect((await gateway.get(`/api/v4/projects/${upstream.id}/repository/branches/feature%2Fforked`).set(asRoot)).status).toBe(404);

    const forks = await gateway.get(`/api/v4/projects/${upstream.id}/forks`).set(asForker);
    expect(forks.status).toBe(200);
    expect(forks.body.map((project: { id: number }) => project.id)).toEqual([fork.body.id]);
    expect((await gateway.get(`/api/v4/projects/${upstream.id}`).set(asForker)).body.forks_count).toBe(1);

    expect((await gateway.delete(`/api/v4/projects/${fork.body.id}/fork`).set(asForker)).status).toBe(204);
    expect((await gateway.delete(`/api/v4/projects/${fork.body.id}/fork`).set(asForker)).status).toBe(304);
    const unlinked = await gateway.get(`/api/v4/projects/${fork.body.id}`).set(asForker);
    expect(unlinked.body.forked_from_project).toBeUndefined();
    expect((await gateway.get(`/api/v4/projects/${upstream.id}/forks`).set(asForker)).body).toEqual([]);
  });
});
