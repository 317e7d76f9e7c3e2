/**
 * Merge methods through the real gateway, on repositories the git CLI pushes to over HTTP: a
 * project's `merge_method` (`ff`, `rebase_merge`) decides whether a merge writes a merge commit and
 * whether a source behind its target may be merged. One platform for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';
import { gitRemote, runGitCli } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

const git = (args: string[], cwd = work) => runGitCli(args, { cwd, home: work });

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
  expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, `root/${name}`), name])).code).toBe(0);
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
  work = mkdtempSync(path.join(tmpdir(), 'e2e-merge-methods-'));
  // A missing git is a failure that says how to install it, not a skip.
  await git(['--version']);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
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
