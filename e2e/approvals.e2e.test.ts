/**
 * Merge request approvals through the real gateway: project settings and rules, group approvers,
 * code owners from a pushed CODEOWNERS file, approving with `@gitbeaker/rest`, pushes with the
 * git CLI resetting approvals, and merges refused until the rules are satisfied.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { Gitlab } from '@gitbeaker/rest';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import {
  addProjectMember,
  createUserWithToken,
  createWorkDir,
  E2E_ROOT_TOKEN,
  type E2eUser,
  removeWorkDir,
  startTestPlatform,
} from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
const PASSWORD = 'a-long-enough-password';

let git: Git;

async function commit(clone: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    writeFileSync(path.join(clone, file), content);
    expect((await git(['add', file], clone)).code).toBe(0);
  }
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
  return (await git(['rev-parse', 'HEAD'], clone)).output.trim();
}

let author: E2eUser;
let lead: E2eUser;
let backend: E2eUser;
let reporter: E2eUser;
let maintainer: E2eUser;
let outsider: E2eUser;
let teamId: number;
let projectId: number;
let clone: string;
const project = () => `/api/v4/projects/${projectId}`;
const client = (user: E2eUser) => new Gitlab({ host: platform.url, token: user.token });

beforeAll(async () => {
  work = createWorkDir('approvals');
  git = await gitCli(work);
  platform = await startTestPlatform();
  gateway = request(platform.url);
  author = await createUserWithToken(gateway, 'ap-author', { password: PASSWORD });
  lead = await createUserWithToken(gateway, 'ap-lead', { password: PASSWORD });
  backend = await createUserWithToken(gateway, 'ap-backend', { password: PASSWORD });
  reporter = await createUserWithToken(gateway, 'ap-reporter', { password: PASSWORD });
  maintainer = await createUserWithToken(gateway, 'ap-maintainer', { password: PASSWORD });
  outsider = await createUserWithToken(gateway, 'ap-outsider', { password: PASSWORD });
  // A team that is not the project's namespace: its members approve through rules, not membership.
  const team = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Approvers', path: 'approvers', visibility: 'private' });
  expect(team.status).toBe(201);
  teamId = team.body.id;
  expect((await gateway.post(`/api/v4/groups/${teamId}/members`).set(asRoot).send({ user_id: backend.id, access_level: 30 })).status).toBe(
    201,
  );
  const created = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'ledger', path: 'ledger', visibility: 'private' });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  for (const [user, level] of [
    [author, 30],
    [lead, 30],
    [backend, 30],
    [reporter, 20],
    [maintainer, 40],
  ] as const)
    await addProjectMember(gateway, { projectId, userId: user.id, accessLevel: level });
  expect((await git(['clone', '-q', gitRemote(platform.url, author.token, 'root/ledger'), 'ledger'])).code).toBe(0);
  clone = path.join(work, 'ledger');
  await commit(
    clone,
    {
      'README.md': '# Ledger\n',
      '.gitlab/CODEOWNERS': [
        '# Owners',
        '*.md @ap-lead',
        '',
        '[Backend]',
        'app/ @ap-backend @ap-outsider',
        '^[Optional]',
        '*.txt @approvers',
      ].join('\n'),
    },
    'Start the ledger',
  );
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('project approval settings and rules', () => {
  it('shows the defaults to developers and lets only maintainers change them', async () => {
    const settings = await gateway.get(`${project()}/approvals`).set(author.headers);
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      approvals_before_merge: 0,
      reset_approvals_on_push: true,
      disable_overriding_approvers_per_merge_request: false,
      merge_requests_author_approval: false,
      merge_requests_disable_committers_approval: false,
      require_password_to_approve: false,
      approvers: [],
      approver_groups: [],
    });
    expect((await gateway.get(`${project()}/approvals`).set(reporter.headers)).status).toBe(403);
    expect((await gateway.get(`${project()}/approvals`).set(outsider.headers)).status).toBe(404);
    expect((await gateway.post(`${project()}/approvals`).set(author.headers).send({ reset_approvals_on_push: false })).status).toBe(403);
    const configured = await client(maintainer).MergeRequestApprovals.editConfiguration(projectId, { resetApprovalsOnPush: true });
    expect(configured).toMatchObject({ reset_approvals_on_push: true });
  });

  let leads: { id: number };

  it('creates rules with users, groups (whose direct members become eligible) and protected branches', async () => {
    const main = await gateway.get(`${project()}/protected_branches/main`).set(maintainer.headers);
    expect(main.status).toBe(200);
    expect(
      (await gateway.patch(`${project()}/protected_branches/main`).set(maintainer.headers).send({ code_owner_approval_required: true }))
        .status,
    ).toBe(200);
    const security = await gateway
      .post(`${project()}/approval_rules`)
      .set(maintainer.headers)
      .send({ name: 'Security', approvals_required: 1, group_ids: [teamId], protected_branch_ids: [main.body.id] });
    expect(security.status).toBe(201);
    expect(security.body).toMatchObject({
      name: 'Security',
      rule_type: 'regular',
      approvals_required: 1,
      users: [],
      groups: [expect.objectContaining({ id: teamId, full_path: 'approvers' })],
      // The group's creator (root) is its owner, a direct member too.
      eligible_approvers: [
        expect.objectContaining({ id: 1, username: 'root' }),
        expect.objectContaining({ id: backend.id, username: 'ap-backend' }),
      ],
      contains_hidden_groups: false,
      protected_branches: [expect.objectContaining({ id: main.body.id, name: 'main' })],
    });
    leads = await client(maintainer).MergeRequestApprovals.createApprovalRule(projectId, 'Leads', 1, { userIds: [lead.id, reporter.id] });
    expect(leads).toMatchObject({ name: 'Leads', approvals_required: 1, eligible_approvers: [{ id: lead.id }, { id: reporter.id }] });

    const listed = await gateway.get(`${project()}/approval_rules`).set(author.headers);
    expect(listed.body.map((rule: { name: string }) => rule.name)).toEqual(['Security', 'Leads']);
    expect((await gateway.get(`${project()}/approval_rules/${leads.id}`).set(author.headers)).body.name).toBe('Leads');
  });

  it('refuses a taken name, missing fields, too little access and unknown rules with GitLab bodies', async () => {
    const taken = await gateway.post(`${project()}/approval_rules`).set(maintainer.headers).send({ name: 'Leads', approvals_required: 1 });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { name: ['has already been taken'] } });
    const missing = await gateway.post(`${project()}/approval_rules`).set(maintainer.headers).send({ approvals_required: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const negative = await gateway.post(`${project()}/approval_rules`).set(maintainer.headers).send({ name: 'x', approvals_required: -1 });
    expect(negative.status).toBe(400);
    expect((await gateway.post(`${project()}/approval_rules`).set(author.headers).send({ name: 'x', approvals_required: 1 })).status).toBe(
      403,
    );
    expect((await gateway.get(`${project()}/approval_rules/999999`).set(author.headers)).status).toBe(404);
    expect((await gateway.delete(`${project()}/approval_rules/999999`).set(maintainer.headers)).status).toBe(404);
    expect((await gateway.get(`${project()}/approval_rules`)).status).toBe(401);
  });

  it('updates a rule, dropping approvers not listed, and deletes one', async () => {
    const scratch = await gateway
      .post(`${project()}/approval_rules`)
      .set(maintainer.headers)
      .send({ name: 'Scratch', approvals_required: 2, user_ids: [lead.id, backend.id] });
    expect(scratch.status).toBe(201);
    const updated = await gateway
      .put(`${project()}/approval_rules/${scratch.body.id}`)
      .set(maintainer.headers)
      .send({ name: 'Scratch 2', approvals_required: 1, user_ids: [backend.id] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Scratch 2', approvals_required: 1, users: [{ id: backend.id }] });
    expect(updated.body.users).toHaveLength(1);
    expect((await gateway.delete(`${project()}/approval_rules/${scratch.body.id}`).set(maintainer.headers)).status).toBe(204);
    expect((await gateway.get(`${project()}/approval_rules/${scratch.body.id}`).set(maintainer.headers)).status).toBe(404);
  });

  it("records rule changes as the project's audit events", async () => {
    await waitFor(async () => {
      const events = await gateway.get(`${project()}/audit_events`).set(asRoot);
      const names = (events.body as Array<{ event_name: string; details: { custom_message: string } }>).map((event) => event.event_name);
      return names.includes('approval_rule_created') && names.includes('approval_rule_updated') && names.includes('approval_rule_deleted');
    });
    const events = await gateway.get(`${project()}/audit_events`).set(asRoot);
    expect(events.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event_name: 'approval_rule_created',
          author_id: maintainer.id,
          entity_type: 'Project',
          details: expect.objectContaining({
            custom_message: 'Created approval rule Security requiring 1 approvals',
            target_type: 'ApprovalProjectRule',
          }),
        }),
      ]),
    );
  });
});

describe('approving a merge request', () => {
  const mr = () => `${project()}/merge_requests/1`;
  let head: string;

  beforeAll(async () => {
    expect((await git(['checkout', '-q', '-b', 'feature/books'], clone)).code).toBe(0);
    head = await commit(clone, { 'app/books.rb': 'class Books; end\n', 'docs/guide.md': '# Guide\n', 'notes.txt': 'n\n' }, 'Keep books');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/books'], clone)).code).toBe(0);
    const opened = await gateway
      .post(`${project()}/merge_requests`)
      .set(author.headers)
      .send({ source_branch: 'feature/books', target_branch: 'main', title: 'Keep books' });
    expect(opened.status).toBe(201);
  });

  it('computes the approval state from project rules and code owner rules for the changed files', async () => {
    const state = await client(author).MergeRequestApprovals.showApprovalState(projectId, 1);
    expect(state.approval_rules_overwritten).toBe(false);
    const rules = state.rules as Array<Record<string, unknown>>;
    expect(rules.map((rule) => [rule.name, rule.rule_type, rule.approvals_required, rule.approved])).toEqual([
      ['Security', 'regular', 1, false],
      ['Leads', 'regular', 1, false],
      ['*.md', 'code_owner', 1, false],
      ['app/', 'code_owner', 1, false],
      ['*.txt', 'code_owner', 0, true],
    ]);
    // Owners count only as project members: the outsider is not an approver of app/.
    expect(rules[3]).toMatchObject({ section: 'Backend', users: [{ id: backend.id }], eligible_approvers: [{ id: backend.id }] });
    expect(rules[4]).toMatchObject({ section: 'Optional', groups: [{ id: teamId }] });
    const approvals = await gateway.get(`${mr()}/approvals`).set(author.headers);
    expect(approvals.status).toBe(200);
    expect(approvals.body).toMatchObject({
      iid: 1,
      project_id: projectId,
      approved: false,
      approvals_required: 4,
      approvals_left: 4,
      approved_by: [],
      user_can_approve: false,
    });
  });

  it('refuses to merge while approvals are missing', async () => {
    const refused = await gateway.put(`${mr()}/merge`).set(maintainer.headers);
    expect(refused.status).toBe(405);
    expect(refused.body).toEqual({ message: '405 Method Not Allowed' });
    const shown = await gateway.get(mr()).set(author.headers);
    expect(shown.body).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'not_approved' });
  });

  it('refuses self-approval, a stale sha, a second approval and callers who may not approve', async () => {
    const self = await gateway.post(`${mr()}/approve`).set(author.headers);
    expect(self.status).toBe(401);
    expect(self.body).toEqual({ message: '401 Unauthorized' });
    const stale = await gateway
      .post(`${mr()}/approve`)
      .set(lead.headers)
      .send({ sha: 'f'.repeat(40) });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ message: `SHA does not match HEAD of source branch: ${head}` });
    expect((await gateway.post(`${mr()}/approve`).set(outsider.headers)).status).toBe(404);
    expect((await gateway.post(`${mr()}/unapprove`).set(lead.headers)).status).toBe(404);
    expect((await gateway.post(`${project()}/merge_requests/99/approve`).set(lead.headers)).status).toBe(404);
  });

  it('counts approvals toward every rule their approver is eligible for, with gitbeaker', async () => {
    const approved = await client(lead).MergeRequestApprovals.approve(projectId, 1, { sha: head });
    expect(approved).toMatchObject({
      approvals_left: 2,
      approved_by: [{ user: { id: lead.id } }],
      user_has_approved: true,
      user_can_approve: false,
    });
    const twice = await gateway.post(`${mr()}/approve`).set(lead.headers);
    expect(twice.status).toBe(401);
    // A reporter named in a rule may approve.
    const byReporter = await gateway.post(`${mr()}/approve`).set(reporter.headers);
    expect(byReporter.status).toBe(201);
    expect(byReporter.body.approvals_left).toBe(2);
    const byBackend = await gateway.post(`${mr()}/approve`).set(backend.headers);
    expect(byBackend.status).toBe(201);
    expect(byBackend.body).toMatchObject({ approved: true, approvals_left: 0 });
    const state = await gateway.get(`${mr()}/approval_state`).set(author.headers);
    expect(state.body.rules.map((rule: { approved_by: Array<{ id: number }> }) => rule.approved_by.map((user) => user.id))).toEqual([
      [backend.id],
      [lead.id, reporter.id],
      [lead.id],
      [backend.id],
      [backend.id],
    ]);
  });

  it('takes an approval back, and resets every approval when the source branch moves', async () => {
    const unapproved = await gateway.post(`${mr()}/unapprove`).set(reporter.headers);
    expect(unapproved.status).toBe(201);
    expect(unapproved.body.approved_by.map((entry: { user: { id: number } }) => entry.user.id)).toEqual([lead.id, backend.id]);
    head = await commit(clone, { 'app/books.rb': 'class Books; def all; end; end\n' }, 'List books');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/books'], clone)).code).toBe(0);
    const approvals = await gateway.get(`${mr()}/approvals`).set(author.headers);
    expect(approvals.body).toMatchObject({ approved_by: [], approvals_left: 4, approved: false });
    expect((await gateway.put(`${mr()}/merge`).set(maintainer.headers)).status).toBe(405);
  });

  it('overrides the project rules with merge request rules copied from them; code owner rules stay as they are', async () => {
    const rules = await gateway.get(`${project()}/approval_rules`).set(author.headers);
    const leads = rules.body.find((rule: { name: string }) => rule.name === 'Leads');
    const copy = await gateway
      .post(`${mr()}/approval_rules`)
      .set(author.headers)
      .send({ name: 'ignored', approvals_required: 2, approval_project_rule_id: leads.id });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      name: 'Leads',
      approvals_required: 2,
      users: [{ id: lead.id }, { id: reporter.id }],
      source_rule: { approvals_required: 1 },
      overridden: true,
    });
    const state = await gateway.get(`${mr()}/approval_state`).set(author.headers);
    expect(state.body.approval_rules_overwritten).toBe(true);
    expect(state.body.rules.map((rule: { name: string }) => rule.name)).toEqual(['Leads', '*.md', 'app/', '*.txt']);
    const codeOwner = state.body.rules[1];
    const edit = await gateway.put(`${mr()}/approval_rules/${codeOwner.id}`).set(maintainer.headers).send({ approvals_required: 0 });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual({ message: ['Prohibited'] });
    const removal = await gateway.delete(`${mr()}/approval_rules/${codeOwner.id}`).set(maintainer.headers);
    expect(removal.status).toBe(403);
    expect(removal.body).toEqual({ message: ['Prohibited'] });
    const own = await client(author).MergeRequestApprovals.allApprovalRules(projectId, { mergerequestIId: 1 });
    expect(own.map((rule) => rule.name)).toEqual(['*.md', 'app/', '*.txt', 'Leads']);
  });

  it('checks the password when the project requires it, then merges once every rule is satisfied', async () => {
    expect((await gateway.post(`${project()}/approvals`).set(maintainer.headers).send({ require_password_to_approve: true })).status).toBe(
      201,
    );
    const wrong = await gateway.post(`${mr()}/approve`).set(lead.headers).send({ approval_password: 'not-it' });
    expect(wrong.status).toBe(401);
    expect((await gateway.post(`${mr()}/approve`).set(lead.headers).send({ approval_password: PASSWORD })).status).toBe(201);
    expect((await gateway.post(`${mr()}/approve`).set(reporter.headers).send({ approval_password: PASSWORD })).status).toBe(201);
    const blocked = await gateway.put(`${mr()}/merge`).set(maintainer.headers);
    expect(blocked.status).toBe(405);
    expect((await gateway.post(`${mr()}/approve`).set(backend.headers).send({ approval_password: PASSWORD })).status).toBe(201);
    expect((await gateway.get(mr()).set(author.headers)).body.detailed_merge_status).toBe('mergeable');
    const merged = await gateway.put(`${mr()}/merge`).set(maintainer.headers);
    expect(merged.status).toBe(200);
    expect(merged.body.state).toBe('merged');
  });
});

describe('protected branches naming users and groups', () => {
  it('keeps user and group entries, described by their names, and lets only them push', async () => {
    const created = await gateway
      .post(`${project()}/protected_branches`)
      .set(maintainer.headers)
      .send({ name: 'release/*', allowed_to_push: [{ user_id: lead.id }, { group_id: teamId }], allowed_to_merge: [{ access_level: 40 }] });
    expect(created.status).toBe(201);
    expect(created.body.push_access_levels).toEqual([
      expect.objectContaining({ access_level: 40, user_id: lead.id, group_id: null, access_level_description: 'ap-lead' }),
      expect.objectContaining({ access_level: 40, user_id: null, group_id: teamId, access_level_description: 'Approvers' }),
    ]);
    const both = await gateway
      .post(`${project()}/protected_branches`)
      .set(maintainer.headers)
      .send({ name: 'hotfix/*', allowed_to_push: [{ user_id: lead.id, access_level: 30 }] });
    expect(both.status).toBe(400);

    const pushAs = async (user: E2eUser, branch: string) => {
      expect((await git(['remote', 'set-url', 'origin', gitRemote(platform.url, user.token, 'root/ledger')], clone)).code).toBe(0);
      return git(['push', 'origin', `origin/main:refs/heads/${branch}`], clone);
    };
    expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
    // The author, a developer the entries do not name, may not create a release branch.
    const refused = await pushAs(author, 'release/1');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('GitLab: You are not allowed to create protected branches on this project.');
    expect((await pushAs(lead, 'release/1')).code).toBe(0);
    expect((await pushAs(backend, 'release/2')).code).toBe(0);
    // A maintainer is not admitted by the entries either: they name users and groups, not roles.
    const maintainerPush = await pushAs(maintainer, 'release/3');
    expect(maintainerPush.code).not.toBe(0);
    expect((await pushAs(author, 'topic-x')).code).toBe(0);
    expect((await git(['remote', 'set-url', 'origin', gitRemote(platform.url, author.token, 'root/ledger')], clone)).code).toBe(0);
    const branch = await gateway.get(`${project()}/repository/branches/release%2F1`).set(lead.headers);
    expect(branch.body).toMatchObject({ protected: true, can_push: true });
    expect((await gateway.get(`${project()}/repository/branches/release%2F1`).set(author.headers)).body.can_push).toBe(false);
  });
});

describe('deprecated approver endpoints', () => {
  it('keeps project approvers and a merge request approvals_required, counting toward an any-approver rule', async () => {
    const approvers = await gateway
      .put(`${project()}/approvers`)
      .set(maintainer.headers)
      .send({ approver_ids: [lead.id], approver_group_ids: [teamId] });
    expect(approvers.status).toBe(200);
    expect(approvers.body).toMatchObject({ approvers: [{ user: { id: lead.id } }], approver_groups: [{ group: { id: teamId } }] });
    expect((await gateway.put(`${project()}/approvers`).set(maintainer.headers).send({ approver_ids: [] })).status).toBe(400);

    // A merge request to a branch no rule applies to (once Leads is scoped to main): the deprecated count decides.
    const rules = await gateway.get(`${project()}/approval_rules`).set(maintainer.headers);
    const leads = rules.body.find((rule: { name: string }) => rule.name === 'Leads');
    const scoped = await gateway
      .put(`${project()}/approval_rules/${leads.id}`)
      .set(maintainer.headers)
      .send({ protected_branch_ids: rules.body[0].protected_branches.map((branch: { id: number }) => branch.id) });
    expect(scoped.body.protected_branches).toEqual([expect.objectContaining({ name: 'main' })]);
    expect((await git(['checkout', '-q', '-b', 'topic', 'origin/main'], clone)).code).toBe(0);
    await commit(clone, { 'lib.js': 'x\n' }, 'Topic');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/topic', 'HEAD:refs/heads/side'], clone)).code).toBe(0);
    const opened = await gateway
      .post(`${project()}/merge_requests`)
      .set(author.headers)
      .send({ source_branch: 'topic', target_branch: 'side', title: 'Topic' });
    expect(opened.status).toBe(201);
    const base = `${project()}/merge_requests/${opened.body.iid}`;
    expect((await gateway.get(`${base}/approvals`).set(author.headers)).body).toMatchObject({ approvals_required: 0, approved: true });
    const required = await gateway.post(`${base}/approvals`).set(author.headers).send({ approvals_required: 2 });
    expect(required.status).toBe(201);
    expect(required.body).toMatchObject({ approvals_required: 2, approvals_left: 2, approvers: [{ user: { id: lead.id } }] });
    const mine = await gateway
      .put(`${base}/approvers`)
      .set(author.headers)
      .send({ approver_ids: [backend.id], approver_group_ids: [] });
    expect(mine.body).toMatchObject({ approvers: [{ user: { id: backend.id } }], approver_groups: [] });
    expect((await gateway.post(`${base}/approve`).set(backend.headers).send({ approval_password: PASSWORD })).body.approvals_left).toBe(1);
    // Only the listed approvers count.
    expect((await gateway.post(`${base}/approve`).set(lead.headers).send({ approval_password: PASSWORD })).body.approvals_left).toBe(1);
  });
});
