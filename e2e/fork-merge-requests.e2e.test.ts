/**
 * Merge requests from a fork to its upstream through the real gateway, with the git CLI pushing
 * to the fork over HTTP: the merge request belongs to the upstream, whose repository fetches the
 * fork's commits, so its diffs, versions and merge work there. One platform for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, type E2eUser, removeWorkDir, startTestPlatform } from './harness.ts';
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

beforeAll(async () => {
  work = createWorkDir('fork-merge-requests');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('merge requests from a fork to its upstream', () => {
  let upstream: { id: number; clone: string; base: string };
  let contributor: E2eUser;
  let fork: { id: number; clone: string; base: string };

  beforeAll(async () => {
    // A public upstream with a merge request of its own, so that the fork's is its second.
    const created = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'fork-upstream', visibility: 'public' });
    expect(created.status).toBe(201);
    upstream = { id: created.body.id, clone: path.join(work, 'upstream'), base: `/api/v4/projects/${created.body.id}/merge_requests` };
    expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/fork-upstream'), 'upstream'])).code).toBe(0);
    await commit(upstream.clone, 'app.txt', 'one\ntwo\nthree\n', 'Start');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], upstream.clone)).code).toBe(0);
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/upstream-work'], upstream.clone)).code).toBe(0);
    await commit(upstream.clone, 'own.txt', 'own\n', 'Own work');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/upstream-work'], upstream.clone)).code).toBe(0);
    const own = await gateway.post(upstream.base).set(asRoot).send({ source_branch: 'upstream-work', target_branch: 'main', title: 'Own' });
    expect(own.body.iid).toBe(1);

    // A reporter of the upstream forks it and pushes a branch to the fork.
    contributor = await createUserWithToken(gateway, 'fork-contributor', { memberships: [{ projectId: upstream.id, accessLevel: 20 }] });
    const forked = await gateway.post(`/api/v4/projects/${upstream.id}/fork`).set(contributor.headers);
    expect(forked.status).toBe(201);
    fork = { id: forked.body.id, clone: path.join(work, 'fork'), base: `/api/v4/projects/${forked.body.id}/merge_requests` };
    const remote = gitRemote(platform.url, contributor.token, 'fork-contributor/fork-upstream');
    expect((await git(['clone', '-q', remote, 'fork'])).code).toBe(0);
    expect((await git(['checkout', '-q', '-b', 'feature/fork', 'origin/main'], fork.clone)).code).toBe(0);
    await commit(fork.clone, 'fork.txt', 'from the fork\n', 'Add fork.txt');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/fork'], fork.clone)).code).toBe(0);
  });

  it('refuses bad targets and sources with 4xx, and strangers to the fork', async () => {
    const ask = (body: Record<string, unknown>, headers = contributor.headers) =>
      gateway
        .post(fork.base)
        .set(headers)
        .send({ source_branch: 'feature/fork', target_branch: 'main', title: 'Fork work', target_project_id: upstream.id, ...body });

    const unknownBranch = await ask({ source_branch: 'nope' });
    expect(unknownBranch.status).toBe(400);
    expect(unknownBranch.body).toEqual({ error: 'Invalid source branch: nope' });
    const unknownTarget = await ask({ target_branch: 'nope' });
    expect(unknownTarget.status).toBe(400);
    expect(unknownTarget.body).toEqual({ error: 'Invalid target branch: nope' });
    expect((await ask({ target_project_id: 'abc' })).status).toBe(400);
    for (const missing of [999_999, 0, -1]) expect((await ask({ target_project_id: missing })).status).toBe(404);

    // A project outside the fork network, which the contributor may read: GitLab's validation of the fork.
    const unrelated = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'unrelated', visibility: 'public' });
    const outside = await ask({ target_project_id: unrelated.body.id });
    expect(outside.status).toBe(422);
    expect(outside.body).toEqual({ message: ['Source project is not a fork of the target project'] });
    // A private project the contributor cannot see is not found.
    const hidden = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'hidden', visibility: 'private' });
    expect((await ask({ target_project_id: hidden.body.id })).status).toBe(404);

    // Someone who sees the public fork but cannot push to it may not open merge requests from it.
    const stranger = await createUserWithToken(gateway, 'fork-stranger');
    expect((await ask({}, stranger.headers)).status).toBe(403);
  });

  it("compares a fork's branch with an upstream ref through from_project_id, and refuses a project outside the fork network", async () => {
    const compare = (query: string) => gateway.get(`/api/v4/projects/${fork.id}/repository/compare?${query}`).set(contributor.headers);
    // A branch written upstream after the fork exists only there: its commit is brought into the fork's repository to compare.
    const upstreamOnly = await gateway
      .post(`/api/v4/projects/${upstream.id}/repository/files/later.txt`)
      .set(asRoot)
      .send({ branch: 'upstream-only', start_branch: 'main', content: 'later\n', commit_message: 'Later upstream' });
    expect(upstreamOnly.status).toBe(201);
    const across = await compare(`from=upstream-only&to=feature/fork&from_project_id=${upstream.id}`);
    expect(across.status).toBe(200);
    expect(across.body.commits.map((commit: { title: string }) => commit.title)).toEqual(['Add fork.txt']);
    expect(across.body.diffs.map((diff: { new_path: string }) => diff.new_path)).toEqual(['fork.txt']);
    expect((await compare('from=upstream-only&to=feature/fork')).status).toBe(404);

    const unrelated = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'compare-unrelated', visibility: 'public' });
    const outside = await compare(`from=main&to=feature/fork&from_project_id=${unrelated.body.id}`);
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ message: `Target project id:${unrelated.body.id} is not a fork of project id:${fork.id}` });
    expect((await compare(`from=main&to=feature/fork&from_project_id=999999`)).status).toBe(400);
  });

  it('commits to the fork starting from an upstream branch (start_project), and refuses a project it was not forked from', async () => {
    const commits = `/api/v4/projects/${fork.id}/repository/commits`;
    const upstreamHead = (await gateway.get(`/api/v4/projects/${upstream.id}/repository/branches/upstream-only`).set(asRoot)).body.commit
      .id;
    const body = {
      branch: 'from-upstream',
      start_branch: 'upstream-only',
      commit_message: 'On top of upstream',
      actions: [{ action: 'create', file_path: 'on-top.txt', content: 'on top\n' }],
    };
    const created = await gateway
      .post(commits)
      .set(contributor.headers)
      .send({ ...body, start_project: upstream.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ parent_ids: [upstreamHead], title: 'On top of upstream' });
    const tree = await gateway.get(`/api/v4/projects/${fork.id}/repository/tree?ref=from-upstream`).set(contributor.headers);
    expect(tree.body.map((entry: { name: string }) => entry.name)).toEqual(expect.arrayContaining(['later.txt', 'on-top.txt']));

    const unrelated = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'start-unrelated', visibility: 'public' });
    const refused = await gateway
      .post(commits)
      .set(contributor.headers)
      .send({ ...body, branch: 'x', start_project: unrelated.body.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Project is not included in the fork network for root/start-unrelated' });
  });

  it('opens the merge request in the upstream, shows its changes, follows pushes to the fork and merges it there', async () => {
    const forkHead = (await git(['rev-parse', 'HEAD'], fork.clone)).output.trim();
    const upstreamMain = (await git(['rev-parse', 'origin/main'], fork.clone)).output.trim();
    const created = await gateway.post(fork.base).set(contributor.headers).send({
      source_branch: 'feature/fork',
      target_branch: 'main',
      title: 'Fork work',
      target_project_id: upstream.id,
      allow_collaboration: true,
    });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('merge_request.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({
      iid: 2,
      project_id: upstream.id,
      source_project_id: fork.id,
      target_project_id: upstream.id,
      sha: forkHead,
      merge_status: 'can_be_merged',
      allow_collaboration: true,
      allow_maintainer_to_push: true,
      changes_count: '1',
      diff_refs: { base_sha: upstreamMain, start_sha: upstreamMain, head_sha: forkHead },
      // Answered to the fork: the upstream's merge request is named in full.
      references: { short: '!2', relative: 'root/fork-upstream!2', full: 'root/fork-upstream!2' },
    });
    const base = `${upstream.base}/2`;

    // It is the upstream's: listed there and not in the fork; the upstream's own one shows no fork fields.
    const listed = await gateway.get(upstream.base).set(contributor.headers);
    expect(listed.body.map((mergeRequest: { iid: number }) => mergeRequest.iid)).toEqual([2, 1]);
    expect(listed.body[1]).not.toHaveProperty('allow_collaboration');
    expect((await gateway.get(fork.base).set(contributor.headers)).body).toEqual([]);
    const shown = await gateway.get(base).set(asRoot);
    expect(shown.body.references).toEqual({ short: '!2', relative: '!2', full: 'root/fork-upstream!2' });

    const changes = await gateway.get(`${base}/changes`).set(asRoot);
    expect(changes.status).toBe(200);
    expect(changes.body.changes).toEqual([
      expect.objectContaining({ new_path: 'fork.txt', new_file: true, a_mode: '0', diff: '@@ -0,0 +1 @@\n+from the fork\n' }),
    ]);

    // A second push to the fork's branch is a second diff version of the upstream's merge request.
    const secondHead = await commit(fork.clone, 'fork.txt', 'from the fork\nand more\n', 'More in the fork');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/fork'], fork.clone)).code).toBe(0);
    const versions = await waitFor(
      async () => {
        const answer = await gateway.get(`${base}/versions`).set(asRoot);
        return answer.body.length === 2 ? answer.body : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(versions.map((version: { head_commit_sha: string }) => version.head_commit_sha)).toEqual([secondHead, forkHead]);
    const commits = await gateway.get(`${base}/commits`).set(asRoot);
    expect(commits.body.map((entry: { id: string }) => entry.id)).toEqual([secondHead, forkHead]);
    expect((await gateway.get(base).set(asRoot)).body).toMatchObject({ sha: secondHead, merge_status: 'can_be_merged' });

    // The upstream's maintainer merges it: a merge commit in the upstream's repository, parents its main and the fork's head.
    const merged = await gateway.put(`${base}/merge`).set(asRoot).send({ sha: secondHead });
    expect(merged.status).toBe(200);
    expect(gitlabSchemaErrors('merge_request.json', merged.body)).toEqual([]);
    expect(merged.body).toMatchObject({ state: 'merged', sha: secondHead });
    expect((await git(['fetch', '-q', 'origin'], upstream.clone)).code).toBe(0);
    const mergeCommit = (await git(['log', '--merges', '-1', '--format=%H %P', 'origin/main'], upstream.clone)).output.trim();
    expect(mergeCommit).toBe(`${merged.body.merge_commit_sha} ${upstreamMain} ${secondHead}`);
    expect((await git(['show', 'origin/main:fork.txt'], upstream.clone)).output).toBe('from the fork\nand more\n');
  });

  it("squashes a fork's commits into one on merge, and removes the source branch in the fork when the merger may push there", async () => {
    expect((await git(['fetch', '-q', 'origin'], fork.clone)).code).toBe(0);
    expect((await git(['checkout', '-q', '-b', 'feature/squashed', 'origin/main'], fork.clone)).code).toBe(0);
    await commit(fork.clone, 'squash.txt', 'one\n', 'Squash one');
    await commit(fork.clone, 'squash.txt', 'one\ntwo\n', 'Squash two');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/squashed'], fork.clone)).code).toBe(0);
    // The fork's main is where the upstream's was when it was forked: the squash commit's parent is that merge base.
    const forkMain = (await git(['rev-parse', 'origin/main'], fork.clone)).output.trim();
    const opened = await gateway.post(fork.base).set(contributor.headers).send({
      source_branch: 'feature/squashed',
      target_branch: 'main',
      title: 'Squashed fork work',
      target_project_id: upstream.id,
      squash: true,
      remove_source_branch: true,
    });
    expect(opened.status).toBe(201);

    // Root maintains the upstream and is an administrator, so may push to the fork too.
    const merged = await gateway.put(`${upstream.base}/${opened.body.iid}/merge`).set(asRoot);
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ state: 'merged', squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect((await git(['fetch', '-q', 'origin'], upstream.clone)).code).toBe(0);
    const squashed = (await git(['log', '-1', '--format=%P %s', merged.body.squash_commit_sha], upstream.clone)).output.trim();
    expect(squashed).toBe(`${forkMain} Squashed fork work`);
    expect((await git(['show', 'origin/main:squash.txt'], upstream.clone)).output).toBe('one\ntwo\n');
    const branch = await gateway.get(`/api/v4/projects/${fork.id}/repository/branches/feature%2Fsquashed`).set(contributor.headers);
    expect(branch.status).toBe(404);
  });

  it('closes open merge requests from a fork once it is unlinked, and keeps them readable', async () => {
    expect((await git(['checkout', '-q', '-b', 'feature/later', 'origin/main'], fork.clone)).code).toBe(0);
    await commit(fork.clone, 'later.txt', 'later\n', 'Later work');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/later'], fork.clone)).code).toBe(0);
    const opened = await gateway
      .post(fork.base)
      .set(contributor.headers)
      .send({ source_branch: 'feature/later', target_branch: 'main', title: 'Later', target_project_id: upstream.id });
    expect(opened.status).toBe(201);
    const base = `${upstream.base}/${opened.body.iid}`;

    expect((await gateway.delete(`/api/v4/projects/${fork.id}/fork`).set(contributor.headers)).status).toBe(204);
    const closed = await waitFor(
      async () => {
        const answer = await gateway.get(base).set(asRoot);
        return answer.body.state === 'closed' ? answer.body : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(closed).toMatchObject({ source_project_id: fork.id, closed_by: expect.objectContaining({ username: 'fork-contributor' }) });
    const changes = await gateway.get(`${base}/changes`).set(asRoot);
    expect(changes.body.changes.map((change: { new_path: string }) => change.new_path)).toEqual(['later.txt']);
    expect((await gateway.get(`${upstream.base}/2/commits`).set(asRoot)).body).toHaveLength(2);
    // No longer in the network: no new merge request from it.
    const refused = await gateway
      .post(fork.base)
      .set(contributor.headers)
      .send({ source_branch: 'feature/later', target_branch: 'main', title: 'Again', target_project_id: upstream.id });
    expect(refused.status).toBe(422);
  });
});
