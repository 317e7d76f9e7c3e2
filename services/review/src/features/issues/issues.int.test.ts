/**
 * The issue tracker against real PostgreSQL and Kafka (identity's and the admin service's answers
 * come from fakes): GitLab's bodies and schema, iids per project, triage rights, confidential
 * issues, every list filter, state events and their outbox events, label counts, and the
 * `issues_create_limit` rate limit.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FixedApplicationSettings } from '@platform/admin-client';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { adminCaller, gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';

const reporter = userCaller(51, 'reporter');
const guest = userCaller(52, 'guest');
const stranger = userCaller(53, 'stranger');
const newcomer = userCaller(54, 'newcomer');
const developer = userCaller(55, 'dev');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', levels: { 51: 20, 52: 10 } })
  .add({ resource: 'project', id: 8, path: 'acme/other', levels: { 51: 20, 52: 10, 54: 10 } })
  .add({ resource: 'project', id: 9, path: 'acme/fixes', levels: { 51: 20, 55: 30 } });
const users = new FixedUserDirectory([
  { id: 51, username: 'reporter' },
  { id: 52, username: 'guest' },
  { id: 54, username: 'newcomer' },
  { id: 55, username: 'dev' },
]);
const settings = new FixedApplicationSettings();
let harness: ServiceHarness<RunningService>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'review-issues-'));
  harness = await startServiceHarness({
    label: 'review_issues',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users, applicationSettings: settings })),
  });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const issues = (project = 7) => `/api/v4/projects/${project}/issues`;
const create = (body: object, caller = reporter, project = 7) => harness.api.post(issues(project)).set(harness.as(caller)).send(body);
const titles = async (query: string, caller = reporter) => {
  const response = await harness.api.get(`${issues()}${query}`).set(harness.as(caller));
  expect(response.status).toBe(200);
  return response.body.map((issue: { title: string }) => issue.title);
};

describe('issues', () => {
  let milestoneId: number;

  beforeAll(async () => {
    const milestone = await harness.api
      .post('/api/v4/projects/7/milestones')
      .set(harness.as(reporter))
      .send({ title: 'v1', due_date: '2030-01-01' });
    milestoneId = milestone.body.id;
  });

  it('creates issues as GitLab shows them, numbered per project, labels unknown to the project created on the way', async () => {
    const created = await create({
      title: 'Crash on save',
      description: '- [x] repro\n- [ ] fix',
      labels: 'bug,ui',
      milestone_id: milestoneId,
      assignee_ids: [52],
    });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('issue.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({
      iid: 1,
      project_id: 7,
      title: 'Crash on save',
      state: 'opened',
      closed_at: null,
      labels: ['bug', 'ui'],
      milestone: { id: milestoneId, iid: 1, title: 'v1', due_date: '2030-01-01' },
      assignees: [{ id: 52, username: 'guest' }],
      author: { id: 51, username: 'reporter' },
      confidential: false,
      web_url: 'http://localhost/acme/app/-/issues/1',
      references: { short: '#1', relative: '#1', full: 'acme/app#1' },
      task_completion_status: { count: 2, completed_count: 1 },
      has_tasks: true,
    });
    const bug = await harness.api.get('/api/v4/projects/7/labels/bug').set(harness.as(guest));
    expect(bug.body).toMatchObject({ name: 'bug', color: '#6699cc', open_issues_count: 1, closed_issues_count: 0 });
    expect((await create({ title: 'Elsewhere' }, reporter, 8)).body.iid).toBe(1);
    expect((await harness.outboxEvents('review.issue.created')).at(-2)).toMatchObject({
      aggregateId: '7',
      actor: { id: 51 },
      data: { projectId: 7, iid: 1, title: 'Crash on save', state: 'opened', authorId: 51 },
    });
  });

  it('lets guests open issues but ignores the triage fields they may not set, as GitLab does', async () => {
    const created = await create({ title: 'Typo in footer', labels: 'guessed', milestone_id: milestoneId, assignee_ids: [51] }, guest);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ iid: 2, labels: [], milestone: null, assignees: [], author: { id: 52 } });
    expect((await harness.api.get('/api/v4/projects/7/labels/guessed').set(harness.as(reporter))).status).toBe(404);
  });

  it('answers GitLab statuses and messages for bad input, unknown issues and callers who may not', async () => {
    expect((await create({})).body).toEqual({ error: 'title is missing' });
    expect((await create({ title: 'x' }, stranger)).status).toBe(404);
    const unknown = await harness.api.get(`${issues()}/999`).set(harness.as(guest));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Issue Not Found' });
    expect((await harness.api.get(`${issues()}/first`).set(harness.as(guest))).status).toBe(400);
    const nothing = await harness.api.put(`${issues()}/1`).set(harness.as(reporter)).send({});
    expect(nothing.status).toBe(400);
    expect(nothing.body.error).toMatch(/are missing, at least one parameter must be provided$/);
    // A guest edits only their own issues.
    expect((await harness.api.put(`${issues()}/1`).set(harness.as(guest)).send({ title: 'Mine now' })).status).toBe(403);
    const own = await harness.api.put(`${issues()}/2`).set(harness.as(guest)).send({ title: 'Typo in the footer', labels: 'sneaky' });
    expect(own.body).toMatchObject({ title: 'Typo in the footer', labels: [] });
  });

  it('hides confidential issues from guests they do not concern', async () => {
    const secret = await create({ title: 'Security hole', confidential: true });
    expect(secret.body.confidential).toBe(true);
    expect((await harness.api.get(`${issues()}/${secret.body.iid}`).set(harness.as(guest))).status).toBe(404);
    expect(await titles('?search=hole', guest)).toEqual([]);
    expect(await titles('?search=hole', reporter)).toEqual(['Security hole']);
  });

  it('closes and reopens issues, with their events, and filters the list by every parameter', async () => {
    const closed = await harness.api.put(`${issues()}/1`).set(harness.as(reporter)).send({ state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: { id: 51 }, closed_at: expect.any(String) });
    expect(gitlabSchemaErrors('issue.json', closed.body)).toEqual([]);
    expect((await harness.outboxEvents('review.issue.closed')).at(-1)).toMatchObject({
      actor: { id: 51 },
      data: { iid: 1, state: 'closed' },
    });
    expect((await harness.api.get('/api/v4/projects/7/labels/bug').set(harness.as(guest))).body).toMatchObject({
      open_issues_count: 0,
      closed_issues_count: 1,
    });

    expect(await titles('?state=closed')).toEqual(['Crash on save']);
    expect(await titles('?state=opened&order_by=created_at&sort=asc')).toEqual(['Typo in the footer', 'Security hole']);
    expect(await titles('?labels=bug')).toEqual(['Crash on save']);
    expect(await titles('?labels=bug,ui')).toEqual(['Crash on save']);
    expect(await titles('?labels=None&sort=asc')).toEqual(['Typo in the footer', 'Security hole']);
    expect(await titles('?labels=Any')).toEqual(['Crash on save']);
    expect(await titles('?not[labels]=bug&sort=asc')).toEqual(['Typo in the footer', 'Security hole']);
    expect(await titles('?milestone=v1')).toEqual(['Crash on save']);
    expect(await titles('?milestone=None&sort=asc')).toEqual(['Typo in the footer', 'Security hole']);
    expect(await titles('?milestone=Any')).toEqual(['Crash on save']);
    expect(await titles('?milestone=v9')).toEqual([]);
    expect(await titles('?not[milestone]=v1&sort=asc')).toEqual(['Typo in the footer', 'Security hole']);
    expect(await titles('?search=footer')).toEqual(['Typo in the footer']);
    expect(await titles('?search=repro&in=title')).toEqual([]);
    expect(await titles('?iids[]=1&iids[]=2&order_by=title&sort=asc')).toEqual(['Crash on save', 'Typo in the footer']);
    expect(await titles('?author_id=52')).toEqual(['Typo in the footer']);
    expect(await titles('?assignee_id=52')).toEqual(['Crash on save']);
    expect(await titles('?scope=created_by_me', guest)).toEqual(['Typo in the footer']);
    const details = await harness.api.get(`${issues()}?labels=bug&with_labels_details=true`).set(harness.as(reporter));
    expect(details.body[0].labels).toEqual([
      { id: expect.any(Number), name: 'bug', color: '#6699cc', description: null, description_html: '', text_color: '#FFFFFF' },
      expect.objectContaining({ name: 'ui' }),
    ]);
    expect((await harness.api.get(`${issues()}?state=closing`).set(harness.as(reporter))).status).toBe(400);

    const reopened = await harness.api
      .put(`${issues()}/1`)
      .set(harness.as(reporter))
      .send({ state_event: 'reopen', remove_labels: 'ui', add_labels: 'p1' });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null, labels: ['bug', 'p1'] });
    expect((await harness.outboxEvents('review.issue.reopened')).at(-1)).toMatchObject({ data: { iid: 1, state: 'opened' } });
  });

  it('follows a renamed label and a deleted milestone', async () => {
    await harness.api.put('/api/v4/projects/7/labels/bug').set(harness.as(reporter)).send({ new_name: 'defect' });
    expect((await harness.api.get(`${issues()}/1`).set(harness.as(reporter))).body.labels).toEqual(['defect', 'p1']);
    await harness.api.delete(`/api/v4/projects/7/milestones/${milestoneId}`).set(harness.as(reporter));
    expect((await harness.api.get(`${issues()}/1`).set(harness.as(reporter))).body.milestone).toBeNull();
  });

  it('refuses issue creation over issues_create_limit per minute with GitLab 429, and 0 means no limit', async () => {
    settings.set({ issuesCreateLimit: 2 });
    try {
      // The guest opened one issue in this minute already.
      expect((await create({ title: 'Second' }, guest)).status).toBe(201);
      const refused = await create({ title: 'Third' }, guest);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
      expect(await titles('?search=Third')).toEqual([]);
      // The limit is per user.
      expect((await create({ title: 'By someone else' }, newcomer, 8)).status).toBe(201);
    } finally {
      settings.set({ issuesCreateLimit: 0 });
    }
    expect((await create({ title: 'Third' }, guest)).status).toBe(201);
  });
});

describe("issues' links, participants and user agent detail", () => {
  const iidOf = async (title: string, project = 7, caller = reporter) => {
    const response = await create({ title, assignee_ids: [52] }, caller, project);
    expect(response.status).toBe(201);
    return response.body.iid as number;
  };
  const links = (iid: number, project = 7) => `${issues(project)}/${iid}/links`;

  it('links issues of two projects, lists them from both ends with the link type each sees, and unlinks them', async () => {
    const blocker = await iidOf('Blocker');
    const blocked = await iidOf('Blocked', 8);
    const related = await iidOf('Related');
    const linked = await harness.api
      .post(links(blocked, 8))
      .set(harness.as(guest))
      .send({ target_project_id: 7, target_issue_iid: blocker, link_type: 'is_blocked_by' });
    expect(linked.status).toBe(201);
    // Kept as GitLab keeps it: the blocker blocks the blocked issue.
    expect(linked.body).toMatchObject({
      source_issue: { iid: blocker, project_id: 7 },
      target_issue: { iid: blocked, project_id: 8 },
      link_type: 'blocks',
    });
    const plain = await harness.api
      .post(links(blocker))
      .set(harness.as(reporter))
      .send({ target_project_id: 'acme/app', target_issue_iid: related });
    expect([plain.status, plain.body.link_type]).toEqual([201, 'relates_to']);

    const fromBlocker = await harness.api.get(links(blocker)).set(harness.as(guest));
    expect(fromBlocker.status).toBe(200);
    expect(
      fromBlocker.body.map((issue: { iid: number; project_id: number; link_type: string }) => [
        issue.project_id,
        issue.iid,
        issue.link_type,
      ]),
    ).toEqual([
      [8, blocked, 'blocks'],
      [7, related, 'relates_to'],
    ]);
    expect(fromBlocker.body[0]).toMatchObject({ issue_link_id: expect.any(Number), link_created_at: expect.any(String) });
    expect(gitlabSchemaErrors('issue.json', fromBlocker.body[1])).toEqual([]);
    const fromBlocked = await harness.api.get(links(blocked, 8)).set(harness.as(guest));
    expect(fromBlocked.body.map((issue: { iid: number; link_type: string }) => [issue.iid, issue.link_type])).toEqual([
      [blocker, 'is_blocked_by'],
    ]);

    const again = await harness.api
      .post(links(blocker))
      .set(harness.as(reporter))
      .send({ target_project_id: 8, target_issue_iid: blocked });
    expect([again.status, again.body]).toEqual([409, { message: 'Issue(s) already assigned' }]);
    const itself = await harness.api
      .post(links(blocker))
      .set(harness.as(reporter))
      .send({ target_project_id: 7, target_issue_iid: blocker });
    expect(itself.status).toBe(422);
    expect((await harness.api.post(links(blocker)).set(harness.as(reporter)).send({ target_project_id: 7 })).body).toEqual({
      error: 'target_issue_iid is missing',
    });
    expect(
      (
        await harness.api
          .post(links(blocker))
          .set(harness.as(reporter))
          .send({ target_project_id: 7, target_issue_iid: related, link_type: 'duplicates' })
      ).status,
    ).toBe(400);
    expect(
      (await harness.api.post(links(blocker)).set(harness.as(reporter)).send({ target_project_id: 7, target_issue_iid: 9999 })).status,
    ).toBe(404);
    expect(
      (await harness.api.post(links(blocker)).set(harness.as(stranger)).send({ target_project_id: 8, target_issue_iid: blocked })).status,
    ).toBe(404);

    const linkId = fromBlocker.body[0].issue_link_id as number;
    const shown = await harness.api.get(`${links(blocked, 8)}/${linkId}`).set(harness.as(guest));
    expect([shown.status, shown.body.link_type]).toEqual([200, 'blocks']);
    expect((await harness.api.get(`${links(related)}/${linkId}`).set(harness.as(guest))).status).toBe(404);
    const removed = await harness.api.delete(`${links(blocker)}/${linkId}`).set(harness.as(guest));
    expect([removed.status, removed.body.target_issue.iid]).toEqual([200, blocked]);
    expect((await harness.api.get(links(blocked, 8)).set(harness.as(guest))).body).toEqual([]);
    expect((await harness.api.delete(`${links(blocker)}/${linkId}`).set(harness.as(guest))).status).toBe(404);
  });

  it('lists the participants of an issue: its author and assignees', async () => {
    const iid = await iidOf('Participated');
    const participants = await harness.api.get(`${issues()}/${iid}/participants`).set(harness.as(guest));
    expect(participants.status).toBe(200);
    expect(participants.body.map((user: { username: string }) => user.username)).toEqual(['reporter', 'guest']);
    expect(participants.body[0]).toEqual({
      id: 51,
      username: 'reporter',
      name: 'reporter',
      state: 'active',
      avatar_url: expect.any(String),
      web_url: expect.any(String),
    });
    expect((await harness.api.get(`${issues()}/9999/participants`).set(harness.as(guest))).status).toBe(404);
    expect((await harness.api.get(`${issues()}/${iid}/participants`).set(harness.as(stranger))).status).toBe(404);
  });

  it('shows administrators the user agent an issue was created with, and 404 for one created without', async () => {
    const created = await harness.api
      .post(issues())
      .set(harness.as(reporter))
      .set('User-Agent', 'python-gitlab/4.0')
      .send({ title: 'From a client' });
    const detail = await harness.api.get(`${issues()}/${created.body.iid}/user_agent_detail`).set(harness.as(adminCaller()));
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({ user_agent: 'python-gitlab/4.0', ip_address: expect.any(String), akismet_submitted: false });
    expect((await harness.api.get(`${issues()}/${created.body.iid}/user_agent_detail`).set(harness.as(reporter))).status).toBe(403);
    const bare = await harness.api.post(issues()).set(harness.as(reporter)).unset('User-Agent').send({ title: 'No agent' });
    const missing = await harness.api.get(`${issues()}/${bare.body.iid}/user_agent_detail`).set(harness.as(adminCaller()));
    expect([missing.status, missing.body]).toEqual([404, { message: '404 UserAgentDetail Not Found' }]);
  });
});

describe('GET /projects/:id/issues/:issue_iid/closed_by', () => {
  it('lists the merge requests whose closing references name the issue, into the default branch only', async () => {
    const as = harness.as(developer);
    const file = (branch: string, name: string) =>
      harness.api
        .post(`/api/v4/projects/9/repository/files/${name}`)
        .set(as)
        .send({ branch, content: name, commit_message: `Add ${name}` });
    expect((await file('main', 'README.md')).status).toBe(201);
    for (const branch of ['fix', 'docs', 'stacked']) {
      expect((await harness.api.post('/api/v4/projects/9/repository/branches').set(as).send({ branch, ref: 'main' })).status).toBe(201);
      expect((await file(branch, `${branch}.txt`)).status).toBe(201);
    }
    const first = await create({ title: 'Broken' }, developer, 9);
    const second = await create({ title: 'Also broken' }, developer, 9);
    const open = (body: object) => harness.api.post('/api/v4/projects/9/merge_requests').set(as).send(body);
    const closing = await open({ source_branch: 'fix', target_branch: 'main', title: 'Fix it', description: `Closes #${first.body.iid}` });
    expect(closing.status).toBe(201);
    await open({ source_branch: 'docs', target_branch: 'main', title: 'Docs', description: `See #${first.body.iid}` });
    await open({ source_branch: 'stacked', target_branch: 'fix', title: 'Stacked', description: `Fixes #${first.body.iid}` });

    const closedBy = await harness.api.get(`${issues(9)}/${first.body.iid}/closed_by`).set(harness.as(reporter));
    expect(closedBy.status).toBe(200);
    expect(closedBy.body).toEqual([
      expect.objectContaining({ iid: closing.body.iid, title: 'Fix it', state: 'opened', project_id: 9, target_branch: 'main' }),
    ]);
    expect(closedBy.headers['x-total']).toBe('1');
    expect((await harness.api.get(`${issues(9)}/${second.body.iid}/closed_by`).set(harness.as(reporter))).body).toEqual([]);
    expect((await harness.api.get(`${issues(9)}/${first.body.iid}/closed_by`).set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.get(`${issues(9)}/999/closed_by`).set(harness.as(reporter))).status).toBe(404);
  });
});

describe('GET /projects/:id/issues/:issue_iid/related_merge_requests', () => {
  it('lists the merge requests that mention the issue and those the issue mentions, by iid, as GitLab shows merge requests', async () => {
    const as = harness.as(developer);
    if ((await harness.api.get('/api/v4/projects/9/repository/branches/main').set(as)).status === 404) {
      await harness.api
        .post('/api/v4/projects/9/repository/files/main.txt')
        .set(as)
        .send({ branch: 'main', content: 'm', commit_message: 'Add' });
    }
    const open = async (branch: string, body: { title: string; description?: string }) => {
      await harness.api.post('/api/v4/projects/9/repository/branches').set(as).send({ branch, ref: 'main' });
      await harness.api
        .post(`/api/v4/projects/9/repository/files/${branch}.txt`)
        .set(as)
        .send({ branch, content: branch, commit_message: `Add ${branch}` });
      const opened = await harness.api
        .post('/api/v4/projects/9/merge_requests')
        .set(as)
        .send({ source_branch: branch, target_branch: 'main', ...body });
      expect(opened.status).toBe(201);
      return opened.body.iid as number;
    };
    const issue = (await create({ title: 'Much talked about' }, developer, 9)).body;
    const describing = await open('rel-describing', { title: 'Describing', description: `Related to #${issue.iid}` });
    const commenting = await open('rel-commenting', { title: 'Commenting', description: `Not #${issue.iid}0 but` });
    await harness.api
      .post(`/api/v4/projects/9/merge_requests/${commenting}/notes`)
      .set(as)
      .send({ body: `about acme/fixes#${issue.iid}` });
    const mentioned = await open('rel-mentioned', { title: 'Mentioned' });
    await open('rel-silent', { title: 'Silent', description: `See !${describing}` });
    await harness.api
      .post(`${issues(9)}/${issue.iid}/notes`)
      .set(as)
      .send({ body: `Done in !${mentioned}` });

    const related = await harness.api.get(`${issues(9)}/${issue.iid}/related_merge_requests`).set(harness.as(reporter));
    expect(related.status).toBe(200);
    expect(related.headers['x-total']).toBe('3');
    expect(related.body).toEqual([
      expect.objectContaining({ iid: describing, title: 'Describing', project_id: 9, state: 'opened', references: expect.any(Object) }),
      expect.objectContaining({ iid: commenting, title: 'Commenting' }),
      expect.objectContaining({ iid: mentioned, title: 'Mentioned' }),
    ]);
    const unrelated = (await create({ title: 'Quiet' }, developer, 9)).body;
    expect((await harness.api.get(`${issues(9)}/${unrelated.iid}/related_merge_requests`).set(as)).body).toEqual([]);
    expect((await harness.api.get(`${issues(9)}/${issue.iid}/related_merge_requests`).set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.get(`${issues(9)}/999/related_merge_requests`).set(as)).status).toBe(404);
  });
});

describe("a milestone's issues", () => {
  it('lists the issues planned for a milestone, confidential ones only to those they concern, and 404 for an unknown milestone', async () => {
    const milestone = await harness.api.post('/api/v4/projects/7/milestones').set(harness.as(reporter)).send({ title: 'v9' });
    const planned = await create({ title: 'Planned', milestone_id: milestone.body.id });
    await create({ title: 'Secretly planned', milestone_id: milestone.body.id, confidential: true });
    await create({ title: 'Unplanned' });
    const path = `/api/v4/projects/7/milestones/${milestone.body.id}/issues`;
    const listed = await harness.api.get(path).set(harness.as(reporter));
    expect(listed.status).toBe(200);
    expect(listed.headers['x-total']).toBe('2');
    expect(listed.body.map((issue: { title: string }) => issue.title)).toEqual(['Secretly planned', 'Planned']);
    expect(listed.body[1]).toMatchObject({ iid: planned.body.iid, milestone: { id: milestone.body.id, title: 'v9' } });
    expect((await harness.api.get(path).set(harness.as(guest))).body.map((issue: { title: string }) => issue.title)).toEqual(['Planned']);
    expect((await harness.api.get('/api/v4/projects/7/milestones/999999/issues').set(harness.as(guest))).status).toBe(404);
    expect((await harness.api.get(path).set(harness.as(stranger))).status).toBe(404);
  });
});
