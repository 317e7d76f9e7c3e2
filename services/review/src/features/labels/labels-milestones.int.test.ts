/**
 * Project labels and milestones against real PostgreSQL and Kafka (identity's answers come from a
 * fake): GitLab's bodies and schemas, its validation messages and statuses, who may change them,
 * and the events in the outbox.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory, type UserDirectory } from '../core/user-directory.ts';

const reporter = userCaller(41, 'reporter');
const guest = userCaller(42, 'guest');
const stranger = userCaller(43, 'stranger');
const developer = userCaller(44, 'developer');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', levels: { 41: 20, 42: 10 } })
  .add({ resource: 'project', id: 8, path: 'acme/other', levels: { 41: 20 } })
  .add({ resource: 'group', id: 5, path: 'acme', levels: { 41: 20, 42: 10 } })
  .add({ resource: 'project', id: 9, path: 'acme/promoted', namespaceIds: [5], levels: { 41: 20, 42: 20, 44: 30 } })
  .add({ resource: 'project', id: 10, path: 'acme/loose', namespaceIds: [], levels: { 41: 20 } })
  .add({ resource: 'project', id: 11, path: 'acme/sibling', namespaceIds: [5], levels: { 41: 20 } });
const directory = new FixedUserDirectory([
  { id: 41, username: 'reporter' },
  { id: 42, username: 'guest' },
  { id: 44, username: 'developer' },
]);
/** Projects 9 and 11 belong to group 5: they use the group's labels and milestones. */
const placements = new Map([
  [9, [5]],
  [11, [5]],
]);
const users: UserDirectory = {
  users: (ids) => directory.users(ids),
  namespaceIdsOf: async (projectId) => placements.get(projectId) ?? [],
  projectNames: (projectId) => directory.projectNames(projectId),
  close: () => directory.close(),
};
let harness: ServiceHarness<RunningService>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'review-labels-'));
  harness = await startServiceHarness({
    label: 'review_labels',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users })),
  });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const labels = (project = 7) => `/api/v4/projects/${project}/labels`;
const milestones = (project = 7) => `/api/v4/projects/${project}/milestones`;

describe('project labels', () => {
  it('creates a label as GitLab shows it, a CSS color name stored as its hex code', async () => {
    const created = await harness.api
      .post(labels())
      .set(harness.as(reporter))
      .send({ name: 'bug', color: 'red', description: 'Something *broken*', priority: 2 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'bug',
      color: '#FF0000',
      text_color: '#FFFFFF',
      description: 'Something *broken*',
      description_html: '<p>Something <em>broken</em></p>',
      open_issues_count: 0,
      closed_issues_count: 0,
      open_merge_requests_count: 0,
      subscribed: false,
      priority: 2,
      is_project_label: true,
    });
    const events = await harness.outboxEvents('review.label.created');
    expect(events.at(-1)).toMatchObject({ aggregateId: '7', actor: { id: 41 }, data: { projectId: 7, name: 'bug', color: '#FF0000' } });
  });

  it('answers GitLab statuses and messages for bad input, duplicates, unknown labels and too little access', async () => {
    const post = (body: object, caller = reporter, project = 7) => harness.api.post(labels(project)).set(harness.as(caller)).send(body);
    expect((await post({ color: '#fff' })).body).toEqual({ error: 'name is missing' });
    expect((await post({ name: 'x' })).status).toBe(400);
    expect((await post({ name: 'x' })).body).toEqual({ error: 'color is missing' });
    const badColor = await post({ name: 'x', color: 'reddish' });
    expect(badColor.status).toBe(400);
    expect(badColor.body).toEqual({ message: { color: ['must be a valid color code'] } });
    expect((await post({ name: 'a,b', color: '#fff' })).body).toEqual({ message: { title: ['is invalid'] } });
    const duplicate = await post({ name: 'bug', color: '#00FF00' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: 'Label already exists' });
    // The same title in another project is another label.
    expect((await post({ name: 'bug', color: '#00FF00' }, reporter, 8)).status).toBe(201);
    const forbidden = await post({ name: 'guessed', color: '#fff' }, guest);
    expect(forbidden.status).toBe(403);
    expect((await post({ name: 'hidden', color: '#fff' }, stranger)).status).toBe(404);
    const unknown = await harness.api.get(`${labels()}/nope`).set(harness.as(guest));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Label Not Found' });
    const nothing = await harness.api.put(`${labels()}/bug`).set(harness.as(reporter)).send({});
    expect(nothing.status).toBe(400);
    expect(nothing.body).toEqual({ error: 'new_name, color, description, priority are missing, at least one parameter must be provided' });
    expect((await harness.api.delete(`${labels()}/bug`).set(harness.as(guest))).status).toBe(403);
  });

  it('lists, finds by id or title, renames, and deletes labels', async () => {
    await harness.api.post(labels()).set(harness.as(reporter)).send({ name: 'feature', color: '#6699cc' });
    const list = await harness.api.get(`${labels()}?search=feat`).set(harness.as(guest));
    expect(list.status).toBe(200);
    expect(list.headers['x-total']).toBe('1');
    expect(list.body.map((label: { name: string }) => label.name)).toEqual(['feature']);
    const all = await harness.api.get(labels()).set(harness.as(guest));
    expect(all.body.map((label: { name: string }) => label.name)).toEqual(['bug', 'feature']);
    const feature = all.body[1] as { id: number };
    expect((await harness.api.get(`${labels()}/${feature.id}`).set(harness.as(guest))).body.name).toBe('feature');

    const renamed = await harness.api
      .put(`${labels()}/feature`)
      .set(harness.as(reporter))
      .send({ new_name: 'enhancement', color: '#FFFF66', priority: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: feature.id, name: 'enhancement', color: '#FFFF66', text_color: '#1F1E24', priority: null });
    const taken = await harness.api.put(`${labels()}/enhancement`).set(harness.as(reporter)).send({ new_name: 'bug' });
    expect(taken.status).toBe(409);

    expect((await harness.api.delete(`${labels()}/enhancement`).set(harness.as(reporter))).status).toBe(204);
    expect((await harness.api.get(`${labels()}/enhancement`).set(harness.as(reporter))).status).toBe(404);
    expect((await harness.outboxEvents('review.label.deleted')).at(-1)).toMatchObject({ data: { name: 'enhancement' } });
  });
});

describe('project milestones', () => {
  it('numbers milestones per project and shows them as GitLab does', async () => {
    const created = await harness.api
      .post(milestones())
      .set(harness.as(reporter))
      .send({ title: 'v1.0', description: 'First', start_date: '2026-01-01', due_date: '2026-02-01' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: 7,
      title: 'v1.0',
      description: 'First',
      state: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      start_date: '2026-01-01',
      due_date: '2026-02-01',
      expired: true,
      web_url: 'http://localhost/acme/app/-/milestones/1',
    });
    const second = await harness.api.post(milestones()).set(harness.as(reporter)).send({ title: 'v2.0' });
    expect(second.body).toMatchObject({ iid: 2, due_date: null, start_date: null, expired: null, description: null });
    expect(gitlabSchemaErrors('milestone.json', second.body)).toEqual([]);
    expect((await harness.api.post(milestones(8)).set(harness.as(reporter)).send({ title: 'v1.0' })).body.iid).toBe(1);
    expect((await harness.outboxEvents('review.milestone.created')).map((event) => event.data.title)).toEqual(['v1.0', 'v2.0', 'v1.0']);
  });

  it('answers GitLab statuses and messages for bad input, duplicates, unknown milestones and too little access', async () => {
    const post = (body: object, caller = reporter) => harness.api.post(milestones()).set(harness.as(caller)).send(body);
    expect((await post({})).body).toEqual({ error: 'title is missing' });
    const duplicate = await post({ title: 'v1.0' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ message: { title: ['already being used for another group or project milestone.'] } });
    const backwards = await post({ title: 'v3', start_date: '2026-03-01', due_date: '2026-02-01' });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toEqual({ message: { due_date: ['must be greater than start date'] } });
    expect((await post({ title: 'v3', due_date: '2026-02-30' })).body).toEqual({ error: 'due_date is invalid' });
    expect((await post({ title: 'v3' }, guest)).status).toBe(403);
    expect((await post({ title: 'v3' }, stranger)).status).toBe(404);
    const unknown = await harness.api.get(`${milestones()}/999999`).set(harness.as(guest));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Milestone Not Found' });
    expect((await harness.api.get(`${milestones()}/v1`).set(harness.as(guest))).status).toBe(400);
    const nothing = await harness.api.put(`${milestones()}/1`).set(harness.as(reporter)).send({});
    expect(nothing.body).toEqual({
      error: 'title, description, due_date, start_date, state_event are missing, at least one parameter must be provided',
    });
  });

  it('closes and activates milestones, and filters the list by state, title, search and iids', async () => {
    const list = async (query: string) => {
      const response = await harness.api.get(`${milestones()}${query}`).set(harness.as(guest));
      expect(response.status).toBe(200);
      return response.body.map((milestone: { title: string }) => milestone.title);
    };
    // Soonest due first, undated last.
    expect(await list('')).toEqual(['v1.0', 'v2.0']);
    const [first] = (await harness.api.get(`${milestones()}?iids[]=1`).set(harness.as(guest))).body as Array<{ id: number }>;
    const closed = await harness.api.put(`${milestones()}/${first?.id}`).set(harness.as(reporter)).send({ state_event: 'close' });
    expect(closed.body.state).toBe('closed');
    expect(await list('?state=closed')).toEqual(['v1.0']);
    expect(await list('?state=active')).toEqual(['v2.0']);
    expect(await list('?title=v2.0')).toEqual(['v2.0']);
    expect(await list('?search=first')).toEqual(['v1.0']);
    expect(await list('?iids[]=2')).toEqual(['v2.0']);
    const activated = await harness.api
      .put(`${milestones()}/${first?.id}`)
      .set(harness.as(reporter))
      .send({ state_event: 'activate', due_date: null });
    expect(activated.body).toMatchObject({ state: 'active', due_date: null, expired: null });
    expect((await harness.outboxEvents('review.milestone.closed')).at(-1)).toMatchObject({ data: { iid: 1, state: 'closed' } });
    expect((await harness.outboxEvents('review.milestone.reopened')).at(-1)).toMatchObject({ data: { iid: 1, state: 'active' } });
    expect((await harness.api.delete(`${milestones()}/${first?.id}`).set(harness.as(reporter))).status).toBe(204);
    expect(await list('')).toEqual(['v2.0']);
  });
});

describe('label subscriptions and group labels named in the body', () => {
  it('subscribes and unsubscribes the caller to a project label: 201 with subscribed, 304 when nothing changes, per user', async () => {
    const label = await harness.api.post(labels()).set(harness.as(reporter)).send({ name: 'watched', color: '#123456' });
    const subscribe = () => harness.api.post(`${labels()}/watched/subscribe`).set(harness.as(guest));
    const subscribed = await subscribe();
    expect(subscribed.status).toBe(201);
    expect(subscribed.body).toMatchObject({ id: label.body.id, name: 'watched', subscribed: true, is_project_label: true });
    expect((await subscribe()).status).toBe(304);
    expect((await harness.api.get(`${labels()}/watched`).set(harness.as(guest))).body.subscribed).toBe(true);
    expect((await harness.api.get(`${labels()}/watched`).set(harness.as(reporter))).body.subscribed).toBe(false);
    const listed = await harness.api.get(`${labels()}?search=watched`).set(harness.as(guest));
    expect(listed.body.map((item: { subscribed: boolean }) => item.subscribed)).toEqual([true]);
    const unsubscribed = await harness.api.post(`${labels()}/${label.body.id}/unsubscribe`).set(harness.as(guest));
    expect([unsubscribed.status, unsubscribed.body.subscribed]).toEqual([201, false]);
    expect((await harness.api.post(`${labels()}/watched/unsubscribe`).set(harness.as(guest))).status).toBe(304);
    expect((await harness.api.post(`${labels()}/nope/subscribe`).set(harness.as(guest))).status).toBe(404);
    expect((await harness.api.post(`${labels()}/watched/subscribe`).set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.post(`${labels()}/watched/subscribe`)).status).toBe(401);
  });

  it('subscribes to group labels, and updates and deletes a group label named in the body as python-gitlab does', async () => {
    const groupLabels = '/api/v4/groups/5/labels';
    const created = await harness.api.post(groupLabels).set(harness.as(reporter)).send({ name: 'team', color: '#00ff00' });
    expect(created.status).toBe(201);
    const subscribed = await harness.api.post(`${groupLabels}/team/subscribe`).set(harness.as(guest));
    expect([subscribed.status, subscribed.body.subscribed]).toEqual([201, true]);
    expect((await harness.api.post(`${groupLabels}/team/subscribe`).set(harness.as(guest))).status).toBe(304);
    expect((await harness.api.get(groupLabels).set(harness.as(guest))).body).toEqual([
      expect.objectContaining({ name: 'team', subscribed: true }),
    ]);

    const renamed = await harness.api
      .put(groupLabels)
      .set(harness.as(reporter))
      .send({ name: 'team', new_name: 'squad', color: '#0000ff' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.body.id, name: 'squad', color: '#0000ff', subscribed: false });
    const byId = await harness.api.put(groupLabels).set(harness.as(reporter)).send({ label_id: created.body.id, description: 'People' });
    expect(byId.body).toMatchObject({ name: 'squad', description: 'People' });
    expect((await harness.api.put(groupLabels).set(harness.as(reporter)).send({ new_name: 'x' })).body).toEqual({
      error: 'label_id, name are missing, exactly one parameter must be provided',
    });
    expect((await harness.api.put(groupLabels).set(harness.as(reporter)).send({ name: 'squad' })).body).toEqual({
      error: 'new_name, color, description are missing, at least one parameter must be provided',
    });
    expect((await harness.api.put(groupLabels).set(harness.as(reporter)).send({ name: 'nope', new_name: 'x' })).status).toBe(404);
    expect((await harness.api.put(groupLabels).set(harness.as(guest)).send({ name: 'squad', new_name: 'x' })).status).toBe(403);
    expect((await harness.api.delete(`${groupLabels}?name=squad`).set(harness.as(reporter))).status).toBe(204);
    expect((await harness.api.get(`${groupLabels}/squad`).set(harness.as(guest))).status).toBe(404);
    expect(await harness.sql('select * from label_subscriptions where label_id = $1', [created.body.id])).toEqual([]);
  });
});

describe('label promotion', () => {
  it("promotes a project label to the project's group with its followers, the issues carrying it left as they were", async () => {
    const label = await harness.api.post(labels(9)).set(harness.as(reporter)).send({ name: 'promo', color: '#abcdef', description: 'Up' });
    expect(label.status).toBe(201);
    await harness.api.post(`${labels(9)}/promo/subscribe`).set(harness.as(guest));
    const issue = await harness.api.post('/api/v4/projects/9/issues').set(harness.as(reporter)).send({ title: 'Tagged', labels: 'promo' });
    const promoted = await harness.api.put(`${labels(9)}/promo/promote`).set(harness.as(reporter));
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ name: 'promo', color: '#abcdef', description: 'Up', subscribed: false });
    expect(promoted.body.id).not.toBe(label.body.id);
    const group = await harness.api.get('/api/v4/groups/5/labels/promo').set(harness.as(guest));
    expect(group.body).toMatchObject({ id: promoted.body.id, subscribed: true });
    expect((await harness.api.get(`${labels(9)}/promo?include_ancestor_groups=false`).set(harness.as(reporter))).status).toBe(404);
    const carried = await harness.api.get(`/api/v4/projects/9/issues/${issue.body.iid}`).set(harness.as(reporter));
    expect(carried.body.labels).toEqual(['promo']);
    expect((await harness.api.put(`${labels(9)}/promo/promote`).set(harness.as(reporter))).status).toBe(404);
  });

  it('refuses promotion in a project without a group and to callers who may not manage labels', async () => {
    await harness.api.post(labels(10)).set(harness.as(reporter)).send({ name: 'alone', color: '#abcdef' });
    expect((await harness.api.put(`${labels(10)}/alone/promote`).set(harness.as(reporter))).status).toBe(403);
    await harness.api.post(labels(9)).set(harness.as(reporter)).send({ name: 'kept', color: '#abcdef' });
    expect((await harness.api.put(`${labels(9)}/kept/promote`).set(harness.as(stranger))).status).toBe(404);
  });
});

describe('dates given as timestamps', () => {
  it('reads a milestone due_date and start_date given as a timestamp as their date, as GitLab does', async () => {
    const created = await harness.api
      .post(milestones(8))
      .set(harness.as(reporter))
      .send({ title: 'dated', start_date: '2019-12-01T10:00:00Z', due_date: '2020-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ start_date: '2019-12-01', due_date: '2020-01-01' });
    const moved = await harness.api
      .put(`${milestones(8)}/${created.body.id}`)
      .set(harness.as(reporter))
      .send({ due_date: '2020-02-03T00:00:00.000Z' });
    expect(moved.body.due_date).toBe('2020-02-03');
  });
});

describe('group milestones', () => {
  const groupMilestones = '/api/v4/groups/5/milestones';

  it("creates, lists, changes and deletes a group's milestones as GitLab shows them, for reporters of the group", async () => {
    const created = await harness.api
      .post(groupMilestones)
      .set(harness.as(reporter))
      .send({ title: 'Q1', description: 'Quarter', due_date: '2020-03-31T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      group_id: 5,
      title: 'Q1',
      description: 'Quarter',
      state: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      start_date: null,
      due_date: '2020-03-31',
      expired: true,
      web_url: expect.stringMatching(/\/groups\/5\/-\/milestones\/1$/),
    });
    expect((await harness.api.post(groupMilestones).set(harness.as(reporter)).send({ title: 'Q2' })).body.iid).toBe(2);
    const duplicate = await harness.api.post(groupMilestones).set(harness.as(reporter)).send({ title: 'Q1' });
    expect([duplicate.status, duplicate.body]).toEqual([
      400,
      { message: { title: ['already being used for another group or project milestone.'] } },
    ]);
    expect((await harness.api.post(groupMilestones).set(harness.as(guest)).send({ title: 'Q3' })).status).toBe(403);
    expect((await harness.api.post(groupMilestones).set(harness.as(stranger)).send({ title: 'Q3' })).status).toBe(404);
    expect((await harness.api.post(groupMilestones).set(harness.as(reporter)).send({})).body).toEqual({ error: 'title is missing' });

    const listed = await harness.api.get(`${groupMilestones}?state=active`).set(harness.as(guest));
    expect(listed.body.map((milestone: { title: string }) => milestone.title)).toEqual(['Q1', 'Q2']);
    expect((await harness.api.get(`${groupMilestones}/${created.body.id}`).set(harness.as(guest))).body.title).toBe('Q1');
    // A project's milestone is not the group's.
    const projectOne = await harness.api.get(`${milestones()}?iids[]=2`).set(harness.as(guest));
    expect((await harness.api.get(`${groupMilestones}/${projectOne.body[0]?.id}`).set(harness.as(guest))).status).toBe(404);
    const closed = await harness.api.put(`${groupMilestones}/${created.body.id}`).set(harness.as(reporter)).send({ state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', group_id: 5 });
    expect((await harness.api.put(`${groupMilestones}/${created.body.id}`).set(harness.as(reporter)).send({})).status).toBe(400);
    expect((await harness.api.put(`${groupMilestones}/${created.body.id}`).set(harness.as(guest)).send({ title: 'x' })).status).toBe(403);
    expect((await harness.api.delete(`${groupMilestones}/${created.body.id}`).set(harness.as(reporter))).status).toBe(204);
    expect((await harness.api.get(`${groupMilestones}/${created.body.id}`).set(harness.as(guest))).status).toBe(404);
  });

  it("plans the group's projects' issues with its milestones and lists them", async () => {
    const milestone = await harness.api.post(groupMilestones).set(harness.as(reporter)).send({ title: 'Release' });
    const issue = await harness.api
      .post('/api/v4/projects/9/issues')
      .set(harness.as(reporter))
      .send({ title: 'Planned in the group', milestone_id: milestone.body.id });
    expect(issue.body.milestone).toMatchObject({ id: milestone.body.id, group_id: 5, title: 'Release' });
    expect(issue.body.milestone.project_id).toBeUndefined();
    // A project outside the group cannot use it.
    const outside = await harness.api
      .post('/api/v4/projects/7/issues')
      .set(harness.as(reporter))
      .send({ title: 'Outside', milestone_id: milestone.body.id });
    expect(outside.body.milestone).toBeNull();

    const planned = await harness.api.get(`${groupMilestones}/${milestone.body.id}/issues`).set(harness.as(guest));
    expect(planned.status).toBe(200);
    expect(planned.body.map((item: { title: string }) => item.title)).toEqual(['Planned in the group']);
    expect((await harness.api.get(`${groupMilestones}/${milestone.body.id}/issues`).set(harness.as(stranger))).status).toBe(404);
    const withAncestors = await harness.api.get(`${milestones(9)}?include_ancestors=true`).set(harness.as(guest));
    expect(withAncestors.body.map((item: { title: string }) => item.title)).toContain('Release');
    expect((await harness.api.get(milestones(9)).set(harness.as(guest))).body.map((item: { title: string }) => item.title)).not.toContain(
      'Release',
    );

    await harness.api.delete(`${groupMilestones}/${milestone.body.id}`).set(harness.as(reporter));
    expect((await harness.api.get(`/api/v4/projects/9/issues/${issue.body.iid}`).set(harness.as(reporter))).body.milestone).toBeNull();
  });
  it("plans the group's projects' merge requests with its milestones, shows them with the group's pages and lists them", async () => {
    const milestone = await harness.api.post(groupMilestones).set(harness.as(reporter)).send({ title: 'Train' });
    const as = harness.as(developer);
    const file = (branch: string) =>
      harness.api
        .post(`/api/v4/projects/9/repository/files/${branch}.txt`)
        .set(as)
        .send({ branch, content: branch, commit_message: `Add ${branch}` });
    expect((await file('main')).status).toBe(201);
    expect((await harness.api.post('/api/v4/projects/9/repository/branches').set(as).send({ branch: 'train', ref: 'main' })).status).toBe(
      201,
    );
    expect((await file('train')).status).toBe(201);
    const opened = await harness.api
      .post('/api/v4/projects/9/merge_requests')
      .set(as)
      .send({ source_branch: 'train', target_branch: 'main', title: 'On the train', milestone_id: milestone.body.id });
    expect(opened.status).toBe(201);
    const shown = { id: milestone.body.id, iid: milestone.body.iid, group_id: 5, title: 'Train' };
    expect(opened.body.milestone).toMatchObject({ ...shown, web_url: expect.stringMatching(/\/groups\/acme\/-\/milestones\/\d+$/) });
    expect(opened.body.milestone.project_id).toBeUndefined();
    const listed = await harness.api.get('/api/v4/projects/9/merge_requests').set(harness.as(reporter));
    expect(listed.body.map((item: { milestone: unknown }) => item.milestone)).toEqual([expect.objectContaining(shown)]);

    const path = `${groupMilestones}/${milestone.body.id}/merge_requests`;
    const carried = await harness.api.get(path).set(harness.as(reporter));
    expect([carried.status, carried.headers['x-total']]).toEqual([200, '1']);
    expect(carried.body).toEqual([
      expect.objectContaining({ iid: opened.body.iid, title: 'On the train', milestone: expect.objectContaining(shown) }),
    ]);
    expect((await harness.api.get(path).set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.get(`${groupMilestones}/999999/merge_requests`).set(harness.as(reporter))).status).toBe(404);
    const cleared = await harness.api.put(`/api/v4/projects/9/merge_requests/${opened.body.iid}`).set(as).send({ milestone_id: 0 });
    expect(cleared.body.milestone).toBeNull();
    expect((await harness.api.get(path).set(harness.as(reporter))).body).toEqual([]);
  });
  it("promotes a project's milestone to its group: what the group's projects planned with that title follows, for reporters of both", async () => {
    const as = harness.as(developer);
    if ((await harness.api.get('/api/v4/projects/9/repository/branches/main').set(as)).status === 404) {
      await harness.api
        .post('/api/v4/projects/9/repository/files/main.txt')
        .set(as)
        .send({ branch: 'main', content: 'm', commit_message: 'Add' });
    }
    await harness.api.post('/api/v4/projects/9/repository/branches').set(as).send({ branch: 'launch', ref: 'main' });
    await harness.api
      .post('/api/v4/projects/9/repository/files/launch.txt')
      .set(as)
      .send({ branch: 'launch', content: 'l', commit_message: 'Launch' });
    const launch = { title: 'Launch', description: 'Go', start_date: '2030-01-01', due_date: '2030-02-01' };
    const own = await harness.api.post(milestones(9)).set(harness.as(reporter)).send(launch);
    const sibling = await harness.api.post(milestones(11)).set(harness.as(reporter)).send({ title: 'Launch' });
    const outside = await harness.api.post(milestones(7)).set(harness.as(reporter)).send({ title: 'Launch' });
    const planned = await harness.api
      .post('/api/v4/projects/9/issues')
      .set(harness.as(reporter))
      .send({ title: 'P', milestone_id: own.body.id });
    const siblingPlanned = await harness.api
      .post('/api/v4/projects/11/issues')
      .set(harness.as(reporter))
      .send({ title: 'S', milestone_id: sibling.body.id });
    const outsidePlanned = await harness.api
      .post('/api/v4/projects/7/issues')
      .set(harness.as(reporter))
      .send({ title: 'O', milestone_id: outside.body.id });
    const opened = await harness.api
      .post('/api/v4/projects/9/merge_requests')
      .set(as)
      .send({ source_branch: 'launch', target_branch: 'main', title: 'Launch it', milestone_id: own.body.id });
    expect(opened.body.milestone).toMatchObject({ id: own.body.id });

    const promote = (project: number, milestoneId: number, caller = reporter) =>
      harness.api.post(`${milestones(project)}/${milestoneId}/promote`).set(harness.as(caller));
    // A reporter of the project who is a guest of the group, a stranger, a project without a group.
    expect((await promote(9, own.body.id, guest)).status).toBe(403);
    expect((await promote(9, own.body.id, stranger)).status).toBe(404);
    expect((await promote(10, own.body.id)).status).toBe(403);
    expect((await promote(9, 999999)).status).toBe(404);
    const promoted = await promote(9, own.body.id);
    expect([promoted.status, promoted.body]).toEqual([200, 200]);

    const inGroup = await harness.api.get(`${groupMilestones}?title=Launch`).set(harness.as(reporter));
    expect(inGroup.body).toEqual([expect.objectContaining({ ...launch, group_id: 5, state: 'active' })]);
    const groupMilestone = inGroup.body[0];
    expect(groupMilestone.id).not.toBe(own.body.id);
    expect((await harness.api.get(`${milestones(9)}/${own.body.id}`).set(harness.as(reporter))).status).toBe(404);
    expect((await harness.api.get(`${milestones(11)}/${sibling.body.id}`).set(harness.as(reporter))).status).toBe(404);
    expect((await harness.api.get(`${milestones(7)}/${outside.body.id}`).set(harness.as(reporter))).status).toBe(200);
    const carried = async (project: number, iid: number) =>
      (await harness.api.get(`/api/v4/projects/${project}/issues/${iid}`).set(harness.as(reporter))).body.milestone;
    expect(await carried(9, planned.body.iid)).toMatchObject({ id: groupMilestone.id, group_id: 5 });
    expect(await carried(11, siblingPlanned.body.iid)).toMatchObject({ id: groupMilestone.id, group_id: 5 });
    expect(await carried(7, outsidePlanned.body.iid)).toMatchObject({ id: outside.body.id, project_id: 7 });
    const merged = await harness.api.get(`/api/v4/projects/9/merge_requests/${opened.body.iid}`).set(harness.as(reporter));
    expect(merged.body.milestone).toMatchObject({ id: groupMilestone.id, group_id: 5 });
    const deleted = await harness.outboxEvents('review.milestone.deleted');
    expect(deleted.map((event) => (event.data as { milestoneId: number }).milestoneId)).toEqual(
      expect.arrayContaining([own.body.id, sibling.body.id]),
    );

    // A title the group has, which a project moved into the group may hold.
    await harness.api.post(groupMilestones).set(harness.as(reporter)).send({ title: 'Moved' });
    const moved = await harness.api.post(milestones(10)).set(harness.as(reporter)).send({ title: 'Moved' });
    access.move(10, { pathWithNamespace: 'acme/loose', namespaceIds: [5] });
    placements.set(10, [5]);
    const refused = await promote(10, moved.body.id);
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: 'Promotion failed - Title already being used for another group or project milestone.' },
    ]);
  });

  it("keeps a title once among a group's milestones and its own projects', as GitLab validates them", async () => {
    const taken = { message: { title: ['already being used for another group or project milestone.'] } };
    await harness.api.post(groupMilestones).set(harness.as(reporter)).send({ title: 'Shared' });
    const inProject = await harness.api.post(milestones(11)).set(harness.as(reporter)).send({ title: 'Shared' });
    expect([inProject.status, inProject.body]).toEqual([400, taken]);
    const own = await harness.api.post(milestones(11)).set(harness.as(reporter)).send({ title: 'Own' });
    const inGroup = await harness.api.post(groupMilestones).set(harness.as(reporter)).send({ title: 'Own' });
    expect([inGroup.status, inGroup.body]).toEqual([400, taken]);
    const renamed = await harness.api
      .put(`${milestones(11)}/${own.body.id}`)
      .set(harness.as(reporter))
      .send({ title: 'Shared' });
    expect([renamed.status, renamed.body]).toEqual([400, taken]);
    // A project outside the group keeps its own titles.
    expect((await harness.api.post(milestones(8)).set(harness.as(reporter)).send({ title: 'Shared' })).status).toBe(201);
  });
});
