/**
 * Merge request approvals that follow what happens to the merge request, through the real gateway
 * and the git CLI: committers kept from approving when the project says so, the deprecated
 * `approvals_before_merge` of a merge request, and code owner rules refreshed when CODEOWNERS
 * changes on the target branch or the merge request is retargeted.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, type E2eUser, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
let clone: string;
let projectId: number;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
const project = () => `/api/v4/projects/${projectId}`;

let git: Git;

let author: E2eUser;
let committer: E2eUser;
let reviewer: E2eUser;
let maintainer: E2eUser;

/** A confirmed user (GitLab matches committers by verified emails only) with an `api` token, as a project member. */
const createMember = (username: string, accessLevel: number): Promise<E2eUser> =>
  createUserWithToken(gateway, username, { skipConfirmation: true, memberships: [{ projectId, accessLevel }] });

/** Commits files on the clone's current branch, written by `by` (the git CLI's own user otherwise). */
async function commit(files: Record<string, string>, message: string, by?: E2eUser): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    writeFileSync(path.join(clone, file), content);
    expect((await git(['add', file], clone)).code).toBe(0);
  }
  const authorship = by ? [`--author=${by.username} <${by.email}>`] : [];
  expect((await git(['commit', '-q', ...authorship, '-m', message], clone)).code).toBe(0);
}

async function pushBranch(branch: string, from = 'HEAD'): Promise<void> {
  const pushed = await git(['push', '-q', 'origin', `${from}:refs/heads/${branch}`], clone);
  expect(pushed).toMatchObject({ code: 0 });
}

async function openMergeRequest(sourceBranch: string, targetBranch: string, extra: Record<string, unknown> = {}): Promise<string> {
  const opened = await gateway
    .post(`${project()}/merge_requests`)
    .set(author.headers)
    .send({ source_branch: sourceBranch, target_branch: targetBranch, title: sourceBranch, ...extra });
  expect(opened.status).toBe(201);
  return `${project()}/merge_requests/${opened.body.iid}`;
}

beforeAll(async () => {
  work = createWorkDir('approvals-refresh');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
  const created = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'atlas', path: 'atlas', visibility: 'private' });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  author = await createMember('rf-author', 30);
  committer = await createMember('rf-committer', 30);
  reviewer = await createMember('rf-reviewer', 30);
  maintainer = await createMember('rf-maintainer', 40);
  expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/atlas'), 'atlas'])).code).toBe(0);
  clone = path.join(work, 'atlas');
  await commit({ 'README.md': '# Atlas\n' }, 'Start the atlas');
  await pushBranch('main');
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe("a merge request's approvals_before_merge", () => {
  it('is set on creation and update (and by the deprecated approvals endpoint), and counts while no rule applies', async () => {
    expect((await git(['checkout', '-q', '-b', 'counted', 'origin/main'], clone)).code).toBe(0);
    await commit({ 'counted.txt': 'one\n' }, 'Count');
    await pushBranch('counted');
    const refused = await gateway
      .post(`${project()}/merge_requests`)
      .set(author.headers)
      .send({ source_branch: 'counted', target_branch: 'main', title: 'Counted', approvals_before_merge: -1 });
    expect(refused.status).toBe(400);
    const opened = await gateway
      .post(`${project()}/merge_requests`)
      .set(author.headers)
      .send({ source_branch: 'counted', target_branch: 'main', title: 'Counted', approvals_before_merge: 2 });
    expect(opened.status).toBe(201);
    expect(opened.body.approvals_before_merge).toBe(2);
    const mergeRequest = `${project()}/merge_requests/${opened.body.iid}`;
    const approvals = await gateway.get(`${mergeRequest}/approvals`).set(author.headers);
    expect(approvals.body).toMatchObject({ approvals_required: 2, approvals_left: 2, approved: false });

    const updated = await gateway.put(mergeRequest).set(author.headers).send({ approvals_before_merge: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body.approvals_before_merge).toBe(1);
    expect((await gateway.get(`${mergeRequest}/approvals`).set(author.headers)).body).toMatchObject({
      approvals_required: 1,
      approvals_left: 1,
    });
    const approved = await gateway.post(`${mergeRequest}/approve`).set(reviewer.headers);
    expect(approved.body).toMatchObject({ approved: true, approvals_left: 0 });

    const deprecated = await gateway.post(`${mergeRequest}/approvals`).set(author.headers).send({ approvals_required: 3 });
    expect(deprecated.status).toBe(201);
    expect(deprecated.body).toMatchObject({ approvals_required: 3, approvals_left: 2 });
    expect((await gateway.get(mergeRequest).set(author.headers)).body.approvals_before_merge).toBe(3);
  });

  it('keeps approvals through a push when reset_approvals_on_push is off, and lets the author approve when allowed', async () => {
    const mergeRequest = `${project()}/merge_requests/1`;
    const settings = await gateway
      .post(`${project()}/approvals`)
      .set(maintainer.headers)
      .send({ reset_approvals_on_push: false, merge_requests_author_approval: true });
    expect(settings.body).toMatchObject({ reset_approvals_on_push: false, merge_requests_author_approval: true });
    await commit({ 'counted.txt': 'two\n' }, 'Count again');
    await pushBranch('counted');
    const kept = await gateway.get(`${mergeRequest}/approvals`).set(author.headers);
    expect(kept.body).toMatchObject({ approved_by: [{ user: { id: reviewer.id } }], user_can_approve: true, approvals_left: 2 });
    const byAuthor = await gateway.post(`${mergeRequest}/approve`).set(author.headers);
    expect(byAuthor.status).toBe(201);
    expect(byAuthor.body.approvals_left).toBe(1);
    const restored = await gateway
      .post(`${project()}/approvals`)
      .set(maintainer.headers)
      .send({ reset_approvals_on_push: true, merge_requests_author_approval: false });
    expect(restored.status).toBe(201);
  });

  it('is kept, and the deprecated endpoints refused, while the project forbids overriding its approvers', async () => {
    const mergeRequest = `${project()}/merge_requests/1`;
    const locked = await gateway
      .post(`${project()}/approvals`)
      .set(maintainer.headers)
      .send({ disable_overriding_approvers_per_merge_request: true });
    expect(locked.body.disable_overriding_approvers_per_merge_request).toBe(true);
    const ignored = await gateway.put(mergeRequest).set(author.headers).send({ approvals_before_merge: 7 });
    expect(ignored.status).toBe(200);
    expect(ignored.body.approvals_before_merge).toBe(3);
    const deprecated = await gateway.post(`${mergeRequest}/approvals`).set(author.headers).send({ approvals_required: 7 });
    expect(deprecated.status).toBe(403);
    const approvers = await gateway
      .put(`${mergeRequest}/approvers`)
      .set(author.headers)
      .send({ approver_ids: [reviewer.id], approver_group_ids: [] });
    expect(approvers.status).toBe(403);
    expect((await gateway.get(`${mergeRequest}/approvals`).set(author.headers)).body).toMatchObject({
      approvals_required: 3,
      approvers: [],
    });
    const unlocked = await gateway
      .post(`${project()}/approvals`)
      .set(maintainer.headers)
      .send({ disable_overriding_approvers_per_merge_request: false });
    expect(unlocked.status).toBe(201);
  });
});

describe('committers of a merge request', () => {
  let mergeRequest: string;

  beforeAll(async () => {
    const rule = await gateway
      .post(`${project()}/approval_rules`)
      .set(maintainer.headers)
      .send({ name: 'Reviewers', approvals_required: 1, user_ids: [committer.id, reviewer.id] });
    expect(rule.status).toBe(201);
    expect((await git(['checkout', '-q', '-b', 'maps', 'origin/main'], clone)).code).toBe(0);
    await commit({ 'maps.txt': 'north\n' }, 'Draw maps', committer);
    await pushBranch('maps');
    mergeRequest = await openMergeRequest('maps', 'main');
  });

  it('may approve while the project allows it', async () => {
    const approvals = await gateway.get(`${mergeRequest}/approvals`).set(committer.headers);
    expect(approvals.body).toMatchObject({ user_can_approve: true, approvals_left: 1 });
  });

  it('may not approve, nor count as an eligible approver, once the project forbids committers to approve', async () => {
    const settings = await gateway
      .post(`${project()}/approvals`)
      .set(maintainer.headers)
      .send({ merge_requests_disable_committers_approval: true });
    expect(settings.status).toBe(201);
    expect(settings.body.merge_requests_disable_committers_approval).toBe(true);

    const approvals = await gateway.get(`${mergeRequest}/approvals`).set(committer.headers);
    expect(approvals.body).toMatchObject({ user_can_approve: false, approvals_left: 1 });
    const state = await gateway.get(`${mergeRequest}/approval_state`).set(committer.headers);
    expect(state.body.rules).toEqual([
      expect.objectContaining({
        name: 'Reviewers',
        users: [expect.objectContaining({ id: committer.id }), expect.objectContaining({ id: reviewer.id })],
        eligible_approvers: [expect.objectContaining({ id: reviewer.id })],
      }),
    ]);
    const refused = await gateway.post(`${mergeRequest}/approve`).set(committer.headers);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: '401 Unauthorized' });

    const approved = await gateway.post(`${mergeRequest}/approve`).set(reviewer.headers);
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ approved: true, approvals_left: 0 });
  });
});

describe('code owner rules', () => {
  let mergeRequest: string;
  const codeOwnerRules = async () => {
    const state = await gateway.get(`${mergeRequest}/approval_state`).set(author.headers);
    expect(state.status).toBe(200);
    return (state.body.rules as Array<{ name: string; rule_type: string; users: Array<{ id: number }> }>)
      .filter((rule) => rule.rule_type === 'code_owner')
      .map((rule) => ({ name: rule.name, users: rule.users.map((user) => user.id) }));
  };
  const head = async () => (await git(['rev-parse', 'HEAD'], clone)).output.trim();

  beforeAll(async () => {
    expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
    const start = (await git(['rev-parse', 'origin/main'], clone)).output.trim();
    expect((await git(['checkout', '-q', '-B', 'stable', start], clone)).code).toBe(0);
    await commit({ 'docs/CODEOWNERS': 'guide.md @rf-committer\n' }, 'Owners of the stable guide');
    await pushBranch('stable');
    expect((await git(['checkout', '-q', '-B', 'owners', start], clone)).code).toBe(0);
    await commit({ CODEOWNERS: '*.md @rf-reviewer\n' }, 'Owners');
    await pushBranch('main');
    const owned = await head();
    expect((await git(['checkout', '-q', '-B', 'guide', owned], clone)).code).toBe(0);
    await commit({ 'guide.md': '# Guide\n' }, 'Write the guide');
    await pushBranch('guide');
    mergeRequest = await openMergeRequest('guide', 'main');
  });

  it("follow the target branch's CODEOWNERS when a push changes it", async () => {
    expect(await codeOwnerRules()).toEqual([{ name: '*.md', users: [reviewer.id] }]);
    expect((await git(['checkout', '-q', 'owners'], clone)).code).toBe(0);
    await commit({ CODEOWNERS: '*.md @rf-maintainer\n' }, 'New owners');
    await pushBranch('main');
    expect(await codeOwnerRules()).toEqual([{ name: '*.md', users: [maintainer.id] }]);
  });

  it('cannot be updated or deleted, as GitLab refuses system rules, and stay as they are', async () => {
    const state = await gateway.get(`${mergeRequest}/approval_state`).set(author.headers);
    const rule = state.body.rules.find((candidate: { rule_type: string }) => candidate.rule_type === 'code_owner');
    const edit = await gateway
      .put(`${mergeRequest}/approval_rules/${rule.id}`)
      .set(maintainer.headers)
      .send({ name: 'mine', approvals_required: 3 });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual({ message: ['Prohibited'] });
    const removal = await gateway.delete(`${mergeRequest}/approval_rules/${rule.id}`).set(maintainer.headers);
    expect(removal.status).toBe(403);
    expect(removal.body).toEqual({ message: ['Prohibited'] });
    const after = await gateway.get(`${mergeRequest}/approval_rules`).set(author.headers);
    expect(after.body).toEqual([expect.objectContaining({ id: rule.id, name: rule.name, approvals_required: rule.approvals_required })]);
  });

  it('follow the new target when the merge request is retargeted, as a new diff version', async () => {
    const retargeted = await gateway.put(mergeRequest).set(author.headers).send({ target_branch: 'stable' });
    expect(retargeted.status).toBe(200);
    expect(retargeted.body.target_branch).toBe('stable');
    expect(await codeOwnerRules()).toEqual([{ name: 'guide.md', users: [committer.id] }]);
    const stable = (await git(['rev-parse', 'origin/stable'], clone)).output.trim();
    const versions = await gateway.get(`${mergeRequest}/versions`).set(author.headers);
    expect(versions.body).toHaveLength(2);
    expect(versions.body[0]).toMatchObject({ start_commit_sha: stable });
  });
});
