/**
 * Who may approve a merge request, through the real gateway: while a regular rule with approvers is
 * unsatisfied only the eligible approvers of its rules may (anyone else gets GitLab's 401 and
 * nothing is recorded); without such a rule, or once every rule is satisfied, any developer may.
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
let teamId: number;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
const project = () => `/api/v4/projects/${projectId}`;

let git: Git;

let author: E2eUser;
let named: E2eUser;
let teammate: E2eUser;
let owner: E2eUser;
let other: E2eUser;

/** Opens a merge request into main from a new branch that writes `file`; answers its API path. */
async function openMergeRequest(branch: string, file: string): Promise<string> {
  expect((await git(['checkout', '-q', '-B', branch, 'origin/main'], clone)).code).toBe(0);
  mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
  writeFileSync(path.join(clone, file), `${branch}\n`);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', branch], clone)).code).toBe(0);
  expect((await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], clone)).code).toBe(0);
  const opened = await gateway
    .post(`${project()}/merge_requests`)
    .set(author.headers)
    .send({ source_branch: branch, target_branch: 'main', title: branch });
  expect(opened.status).toBe(201);
  return `${project()}/merge_requests/${opened.body.iid}`;
}

async function addRule(
  mergeRequest: string,
  rule: { name: string; approvals_required: number; user_ids?: number[]; group_ids?: number[] },
) {
  const created = await gateway.post(`${mergeRequest}/approval_rules`).set(author.headers).send(rule);
  expect(created.status).toBe(201);
}

/** The approvals view and the approval state as `user` sees them. */
async function approvalViews(mergeRequest: string, user: E2eUser) {
  const approvals = await gateway.get(`${mergeRequest}/approvals`).set(user.headers);
  const state = await gateway.get(`${mergeRequest}/approval_state`).set(user.headers);
  expect([approvals.status, state.status]).toEqual([200, 200]);
  return { approvals: approvals.body, state: state.body };
}

/** `user` may not approve: the view says so, approving is GitLab's 401, and neither view changes. */
async function expectRefused(mergeRequest: string, user: E2eUser): Promise<void> {
  const before = await approvalViews(mergeRequest, user);
  expect(before.approvals.user_can_approve).toBe(false);
  const refused = await gateway.post(`${mergeRequest}/approve`).set(user.headers);
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual({ message: '401 Unauthorized' });
  expect(await approvalViews(mergeRequest, user)).toEqual(before);
}

/** `user` may approve, as the view says beforehand; answers the approvals view approving returns. */
async function approve(mergeRequest: string, user: E2eUser) {
  expect((await approvalViews(mergeRequest, user)).approvals.user_can_approve).toBe(true);
  const approved = await gateway.post(`${mergeRequest}/approve`).set(user.headers);
  expect(approved.status).toBe(201);
  return approved.body as { approved: boolean; approvals_left: number; approved_by: Array<{ user: { id: number } }> };
}

const approverIds = (view: { approved_by: Array<{ user: { id: number } }> }) => view.approved_by.map((entry) => entry.user.id);

beforeAll(async () => {
  work = createWorkDir('approvals-eligibility');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
  const created = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'quorum', path: 'quorum', visibility: 'private' });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  const asDeveloper = { memberships: [{ projectId, accessLevel: 30 }] };
  author = await createUserWithToken(gateway, 'el-author', asDeveloper);
  named = await createUserWithToken(gateway, 'el-named', asDeveloper);
  teammate = await createUserWithToken(gateway, 'el-teammate', asDeveloper);
  owner = await createUserWithToken(gateway, 'el-owner', asDeveloper);
  other = await createUserWithToken(gateway, 'el-other', asDeveloper);
  const team = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Quorum team', path: 'quorum-team', visibility: 'private' });
  expect(team.status).toBe(201);
  teamId = team.body.id;
  expect((await gateway.post(`/api/v4/groups/${teamId}/members`).set(asRoot).send({ user_id: teammate.id, access_level: 30 })).status).toBe(
    201,
  );

  expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/quorum'), 'quorum'])).code).toBe(0);
  clone = path.join(work, 'quorum');
  writeFileSync(path.join(clone, 'README.md'), '# Quorum\n');
  writeFileSync(path.join(clone, 'CODEOWNERS'), 'owned/ @el-owner\n');
  expect((await git(['add', 'README.md', 'CODEOWNERS'], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', 'Start the quorum'], clone)).code).toBe(0);
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
  expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
  // Code owner rules require approvals only where the target's protected branch says so.
  const protection = await gateway.patch(`${project()}/protected_branches/main`).set(asRoot).send({ code_owner_approval_required: true });
  expect(protection.status).toBe(200);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('while a regular rule with approvers is unsatisfied', () => {
  it('refuses a developer a user rule does not name, then lets them add an approval once it is satisfied', async () => {
    const mergeRequest = await openMergeRequest('user-rule', 'user-rule.txt');
    await addRule(mergeRequest, { name: 'Leads', approvals_required: 1, user_ids: [named.id] });
    await expectRefused(mergeRequest, other);
    const byNamed = await approve(mergeRequest, named);
    expect(byNamed).toMatchObject({ approved: true, approvals_left: 0 });
    const byOther = await approve(mergeRequest, other);
    expect(approverIds(byOther)).toEqual([named.id, other.id]);
    // The author stays excluded, approved or not.
    await expectRefused(mergeRequest, author);
  });

  it("refuses a developer outside a group rule's group, and lets its direct member approve", async () => {
    const mergeRequest = await openMergeRequest('group-rule', 'group-rule.txt');
    await addRule(mergeRequest, { name: 'Team', approvals_required: 1, group_ids: [teamId] });
    await expectRefused(mergeRequest, other);
    await expectRefused(mergeRequest, named);
    expect(await approve(mergeRequest, teammate)).toMatchObject({ approved: true, approvals_left: 0 });
    expect(approverIds(await approve(mergeRequest, other))).toEqual([teammate.id, other.id]);
  });

  it("lets a code owner rule's approver approve beside it, and holds others back until the code owner rule is satisfied too", async () => {
    const mergeRequest = await openMergeRequest('owned-change', 'owned/ledger.txt');
    await addRule(mergeRequest, { name: 'Leads', approvals_required: 1, user_ids: [named.id] });
    const rules = (await approvalViews(mergeRequest, author)).state.rules as Array<{ rule_type: string; approvals_required: number }>;
    expect(rules.map((rule) => [rule.rule_type, rule.approvals_required])).toEqual([
      ['regular', 1],
      ['code_owner', 1],
    ]);
    await expectRefused(mergeRequest, other);
    expect(await approve(mergeRequest, named)).toMatchObject({ approved: false, approvals_left: 1 });
    // The regular rule is satisfied, the code owner rule is not: the merge request is not approved yet.
    await expectRefused(mergeRequest, other);
    expect(await approve(mergeRequest, owner)).toMatchObject({ approved: true, approvals_left: 0 });
    expect(approverIds(await approve(mergeRequest, other))).toEqual([named.id, owner.id, other.id]);
  });
});

describe('without a regular rule holding approving back', () => {
  it('lets any developer approve a merge request without rules', async () => {
    const mergeRequest = await openMergeRequest('no-rules', 'no-rules.txt');
    expect(await approve(mergeRequest, other)).toMatchObject({ approved: true, approvals_left: 0 });
  });

  it('lets any developer approve under a rule requiring no approvals', async () => {
    const mergeRequest = await openMergeRequest('zero-rule', 'zero-rule.txt');
    await addRule(mergeRequest, { name: 'Optional', approvals_required: 0, user_ids: [named.id] });
    expect(approverIds(await approve(mergeRequest, other))).toEqual([other.id]);
  });

  it('lets any developer approve beside code owner rules alone, without counting toward them', async () => {
    const mergeRequest = await openMergeRequest('owned-only', 'owned/notes.txt');
    const byOther = await approve(mergeRequest, other);
    expect(byOther).toMatchObject({ approved: false, approvals_left: 1 });
    expect(approverIds(byOther)).toEqual([other.id]);
    expect(await approve(mergeRequest, owner)).toMatchObject({ approved: true, approvals_left: 0 });
  });
});
