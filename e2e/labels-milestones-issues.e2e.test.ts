/**
 * Labels, milestones and issues through the real gateway, and what merge requests do to issues:
 * `closes_issues` from closing references in a merge request's description and commits (pushed
 * with the git CLI), and a merge into the default branch closing them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
import {
  createUserWithToken,
  createWorkDir,
  E2E_ROOT_TOKEN,
  MERGE_REQUEST_LIST_ADDED_FIELDS,
  removeWorkDir,
  startTestPlatform,
} from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
let projectId: number;
let guestHeaders: { 'PRIVATE-TOKEN': string };
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
const projectPath = 'root/tracker';
let git: Git;

async function commit(clone: string, file: string, message: string): Promise<void> {
  writeFileSync(path.join(clone, file), `${message}\n`);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
}

beforeAll(async () => {
  work = createWorkDir('issues');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'tracker', path: 'tracker', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  const guest = await createUserWithToken(gateway, 'tracker-guest', { name: 'Guest', memberships: [{ projectId, accessLevel: 10 }] });
  guestHeaders = guest.headers;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('labels and milestones through the gateway', () => {
  it('creates labels and milestones with GitLab bodies, and refuses duplicates, guests and unknown ones', async () => {
    const label = await gateway.post(`/api/v4/projects/${projectId}/labels`).set(asRoot).send({ name: 'bug', color: 'DarkRed' });
    expect(label.status).toBe(201);
    expect(label.body).toMatchObject({ name: 'bug', color: '#8B0000', text_color: '#FFFFFF', open_issues_count: 0 });
    const duplicate = await gateway.post(`/api/v4/projects/${projectId}/labels`).set(asRoot).send({ name: 'bug', color: '#fff' });
    expect([duplicate.status, duplicate.body]).toEqual([409, { message: 'Label already exists' }]);
    expect((await gateway.post(`/api/v4/projects/${projectId}/labels`).set(asRoot).send({ color: '#fff' })).body).toEqual({
      error: 'name is missing',
    });
    expect((await gateway.post(`/api/v4/projects/${projectId}/labels`).set(guestHeaders).send({ name: 'x', color: '#fff' })).status).toBe(
      403,
    );
    expect((await gateway.get(`/api/v4/projects/${projectId}/labels/nope`).set(guestHeaders)).status).toBe(404);
    expect((await gateway.get(`/api/v4/projects/${projectId}/labels`)).status).toBe(404);

    const milestone = await gateway.post(`/api/v4/projects/${projectId}/milestones`).set(asRoot).send({ title: 'v1.0' });
    expect(milestone.status).toBe(201);
    expect(gitlabSchemaErrors('milestone.json', milestone.body)).toEqual([]);
    expect(milestone.body.web_url).toBe(`${platform.url}/${projectPath}/-/milestones/1`);
    const listed = await gateway.get(`/api/v4/projects/${projectId}/milestones?state=active`).set(guestHeaders);
    expect(listed.body.map((item: { title: string }) => item.title)).toEqual(['v1.0']);
    expect((await gateway.post(`/api/v4/projects/${projectId}/milestones`).set(guestHeaders).send({ title: 'v2' })).status).toBe(403);
  });
});

describe('issues and merge requests that close them', () => {
  let clone: string;

  beforeAll(async () => {
    expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, projectPath), 'tracker'])).code).toBe(0);
    clone = path.join(work, 'tracker');
    await commit(clone, 'README.md', 'Initial commit');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
    await commit(clone, 'fix.txt', 'Handle empty input\n\nFixes #2');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/fix'], clone)).code).toBe(0);
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/side'], clone)).code).toBe(0);
  });

  it('numbers issues apart from merge requests and shows them as GitLab does', async () => {
    for (const title of ['Crash on empty input', 'Empty input is refused', 'Unrelated']) {
      const created = await gateway.post(`/api/v4/projects/${projectId}/issues`).set(guestHeaders).send({ title });
      expect(created.status).toBe(201);
      expect(gitlabSchemaErrors('issue.json', created.body)).toEqual([]);
    }
    const list = await gateway.get(`/api/v4/projects/${projectId}/issues?state=opened&sort=asc`).set(asRoot);
    expect(list.status).toBe(200);
    // GitLab's issues.json nests its `$ref` where no validator reads it: each item is checked against issue.json.
    for (const issue of list.body) expect(gitlabSchemaErrors('issue.json', issue)).toEqual([]);
    expect(list.body.map((issue: { iid: number }) => issue.iid)).toEqual([1, 2, 3]);
    expect(list.body[0]._links.self).toBe(`${platform.url}/api/v4/projects/${projectId}/issues/1`);
  });

  it('lists the issues a merge request into the default branch closes, from its description and commits', async () => {
    const created = await gateway
      .post(`/api/v4/projects/${projectId}/merge_requests`)
      .set(asRoot)
      .send({ source_branch: 'fix', target_branch: 'main', title: 'Handle empty input', description: 'Closes #1, see #3' });
    expect(created.status).toBe(201);
    // Merge requests have their own iids.
    expect(created.body.iid).toBe(1);
    const closes = await gateway.get(`/api/v4/projects/${projectId}/merge_requests/1/closes_issues`).set(asRoot);
    expect(closes.status).toBe(200);
    for (const issue of closes.body) expect(gitlabSchemaErrors('issue.json', issue)).toEqual([]);
    expect(closes.body.map((issue: { iid: number }) => issue.iid)).toEqual([1, 2]);
    expect((await gateway.get(`/api/v4/projects/${projectId}/merge_requests/99/closes_issues`).set(asRoot)).status).toBe(404);

    // Into another branch, it closes nothing.
    const side = await gateway
      .post(`/api/v4/projects/${projectId}/merge_requests`)
      .set(asRoot)
      .send({ source_branch: 'fix', target_branch: 'side-target', title: 'Elsewhere', description: 'Closes #3' });
    expect(side.status).toBe(400);
    expect((await git(['push', '-q', 'origin', 'main:refs/heads/side-target'], clone)).code).toBe(0);
    const elsewhere = await gateway
      .post(`/api/v4/projects/${projectId}/merge_requests`)
      .set(asRoot)
      .send({ source_branch: 'side', target_branch: 'side-target', title: 'Elsewhere', description: 'Closes #3' });
    expect(
      (await gateway.get(`/api/v4/projects/${projectId}/merge_requests/${elsewhere.body.iid}/closes_issues`).set(asRoot)).body,
    ).toEqual([]);
  });

  it('closes those issues when the merge request is merged, by whoever merged it', async () => {
    await waitFor(async () => {
      const mergeRequest = await gateway.get(`/api/v4/projects/${projectId}/merge_requests/1`).set(asRoot);
      return mergeRequest.body.merge_status === 'can_be_merged';
    });
    const merged = await gateway.put(`/api/v4/projects/${projectId}/merge_requests/1/merge`).set(asRoot);
    expect(merged.status).toBe(200);
    const closed = await gateway.get(`/api/v4/projects/${projectId}/issues?state=closed&sort=asc`).set(asRoot);
    expect(closed.body.map((issue: { iid: number }) => issue.iid)).toEqual([1, 2]);
    expect(closed.body[0]).toMatchObject({ state: 'closed', closed_by: { username: 'root' } });
    expect((await gateway.get(`/api/v4/projects/${projectId}/issues/3`).set(asRoot)).body.state).toBe('opened');
  });
});

describe('milestones and labels on merge requests of a group project', () => {
  let groupId: number;
  let boardId: number;
  let board: string;
  let v1: number;
  let v2: number;
  const mergeRequests = () => `/api/v4/projects/${boardId}/merge_requests`;
  const titlesOf = async (path: string) => {
    const response = await gateway.get(path).set(asRoot);
    expect(response.status).toBe(200);
    // The global list shows the other project's merge requests too.
    return response.body
      .filter((mergeRequest: { project_id: number }) => mergeRequest.project_id === boardId)
      .map((mergeRequest: { title: string }) => mergeRequest.title)
      .sort();
  };

  beforeAll(async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'planning', path: 'planning', visibility: 'private' });
    expect(group.status).toBe(201);
    groupId = group.body.id;
    const project = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'board', path: 'board', namespace_id: groupId, visibility: 'private' });
    expect(project.status).toBe(201);
    boardId = project.body.id;
    expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'planning/board'), 'board'])).code).toBe(0);
    board = path.join(work, 'board');
    await commit(board, 'README.md', 'Initial commit');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], board)).code).toBe(0);
    for (const branch of ['first', 'second', 'third']) {
      await commit(board, `${branch}.txt`, `Work on ${branch}`);
      expect((await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], board)).code).toBe(0);
    }
    v1 = (await gateway.post(`/api/v4/projects/${boardId}/milestones`).set(asRoot).send({ title: 'v1.0' })).body.id;
    v2 = (await gateway.post(`/api/v4/projects/${boardId}/milestones`).set(asRoot).send({ title: 'v2.0' })).body.id;
    expect((await gateway.post(`/api/v4/projects/${boardId}/labels`).set(asRoot).send({ name: 'bug', color: '#FF0000' })).status).toBe(201);
  }, 180_000);

  it('links a merge request to a milestone of its project, shown as GitLab shows it, and 404 for an unknown one', async () => {
    const unknown = await gateway
      .post(mergeRequests())
      .set(asRoot)
      .send({ source_branch: 'first', target_branch: 'main', title: 'First', milestone_id: 999_999 });
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Milestone Not Found' }]);
    // Another project's milestone is no milestone of this one.
    const elsewhere = (await gateway.get(`/api/v4/projects/${projectId}/milestones`).set(asRoot)).body[0].id;
    const foreign = await gateway
      .post(mergeRequests())
      .set(asRoot)
      .send({ source_branch: 'first', target_branch: 'main', title: 'First', milestone_id: elsewhere });
    expect(foreign.status).toBe(404);
    const badType = await gateway
      .post(mergeRequests())
      .set(asRoot)
      .send({ source_branch: 'first', target_branch: 'main', title: 'First', milestone_id: 'soon' });
    expect(badType.status).toBe(400);

    const created = await gateway
      .post(mergeRequests())
      .set(asRoot)
      .send({ source_branch: 'first', target_branch: 'main', title: 'First', milestone_id: v1 });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('merge_request.json', created.body)).toEqual([]);
    expect(created.body.milestone).toMatchObject({ id: v1, iid: 1, project_id: boardId, title: 'v1.0', state: 'active', expired: null });
    expect(created.body.milestone.web_url).toBe(`${platform.url}/planning/board/-/milestones/1`);
    const listed = await gateway.get(mergeRequests()).set(asRoot);
    expect(gitlabSchemaErrors('merge_requests.json', listed.body, { added: MERGE_REQUEST_LIST_ADDED_FIELDS })).toEqual([]);
    expect(listed.body[0].milestone).toMatchObject({ id: v1, title: 'v1.0' });

    const second = await gateway
      .post(mergeRequests())
      .set(asRoot)
      .send({ source_branch: 'second', target_branch: 'main', title: 'Second' });
    expect(second.body.milestone).toBeNull();
    const moved = await gateway.put(`${mergeRequests()}/${second.body.iid}`).set(asRoot).send({ milestone_id: v2 });
    expect(moved.status).toBe(200);
    expect(moved.body.milestone).toMatchObject({ id: v2, title: 'v2.0' });
    const unknownUpdate = await gateway.put(`${mergeRequests()}/${second.body.iid}`).set(asRoot).send({ milestone_id: 999_999 });
    expect([unknownUpdate.status, unknownUpdate.body]).toEqual([404, { message: '404 Milestone Not Found' }]);
    expect((await gateway.put(`${mergeRequests()}/${second.body.iid}`).set(asRoot).send({ milestone_id: 0 })).body.milestone).toBeNull();
    expect((await gateway.put(`${mergeRequests()}/${second.body.iid}`).set(asRoot).send({ milestone_id: v2 })).status).toBe(200);
    const third = await gateway.post(mergeRequests()).set(asRoot).send({ source_branch: 'third', target_branch: 'main', title: 'Third' });
    expect(third.status).toBe(201);
    const removed = await gateway.put(`${mergeRequests()}/${third.body.iid}`).set(asRoot).send({ milestone_id: v1 });
    expect(removed.body.milestone.id).toBe(v1);
    expect((await gateway.put(`${mergeRequests()}/${third.body.iid}`).set(asRoot).send({ milestone_id: null })).body.milestone).toBeNull();
  });

  it('filters the project, group and global lists by milestone title, None, Any and not[milestone]', async () => {
    for (const list of [mergeRequests(), `/api/v4/groups/${groupId}/merge_requests`, '/api/v4/merge_requests']) {
      const query = (filter: string) => `${list}?scope=all&${filter}`;
      expect(await titlesOf(query('milestone=v1.0'))).toEqual(['First']);
      expect(await titlesOf(query('milestone=v2.0'))).toEqual(['Second']);
      expect(await titlesOf(query('milestone=v3.0'))).toEqual([]);
      expect(await titlesOf(query('milestone=Any'))).toEqual(['First', 'Second']);
      expect(await titlesOf(query('milestone=None'))).toEqual(['Third']);
      expect(await titlesOf(query('not[milestone]=v1.0'))).toEqual(['Second', 'Third']);
      expect(await titlesOf(query('not[milestone]=None'))).toEqual(['First', 'Second']);
    }
  });

  it('creates the labels a merge request names that the project lacks, with GitLab default color, and shows details on request', async () => {
    const labelled = await gateway.put(`${mergeRequests()}/1`).set(asRoot).send({ labels: 'bug,needs review' });
    expect(labelled.status).toBe(200);
    expect(labelled.body.labels).toEqual(['bug', 'needs review']);
    const added = await gateway.put(`${mergeRequests()}/1`).set(asRoot).send({ add_labels: 'later' });
    expect(added.body.labels).toEqual(['bug', 'needs review', 'later']);
    const created = await gateway
      .post(mergeRequests())
      .set(asRoot)
      .send({ source_branch: 'third', target_branch: 'first', title: 'Fourth', labels: 'brand new' });
    expect(created.body.labels).toEqual(['brand new']);
    const labels = await gateway.get(`/api/v4/projects/${boardId}/labels`).set(asRoot);
    expect(labels.body.map((label: { name: string; color: string }) => [label.name, label.color])).toEqual([
      ['brand new', '#6699cc'],
      ['bug', '#FF0000'],
      ['later', '#6699cc'],
      ['needs review', '#6699cc'],
    ]);

    const detailed = await gateway.get(`${mergeRequests()}?iids[]=1&with_labels_details=true`).set(asRoot);
    expect(detailed.status).toBe(200);
    const bug = labels.body.find((label: { name: string }) => label.name === 'bug');
    expect(detailed.body[0].labels[0]).toEqual({
      id: bug.id,
      name: 'bug',
      color: '#FF0000',
      text_color: '#FFFFFF',
      description: null,
      description_html: '',
    });
    expect(detailed.body[0].labels.map((label: { name: string }) => label.name)).toEqual(['bug', 'needs review', 'later']);
    const global = await gateway.get(`/api/v4/merge_requests?scope=all&labels=later&with_labels_details=true`).set(asRoot);
    expect(global.body.map((mergeRequest: { labels: Array<{ name: string }> }) => mergeRequest.labels[2]?.name)).toEqual(['later']);
    expect((await gateway.get(`${mergeRequests()}?with_labels_details=maybe`).set(asRoot)).status).toBe(400);
  });
});

describe('group labels', () => {
  let groupId: number;
  let boardId: number;
  const groupLabels = () => `/api/v4/groups/${groupId}/labels`;

  beforeAll(async () => {
    const group = await gateway.get('/api/v4/groups/planning').set(asRoot);
    expect(group.status).toBe(200);
    groupId = group.body.id;
    boardId = (await gateway.get(`/api/v4/projects/${encodeURIComponent('planning/board')}`).set(asRoot)).body.id;
  });

  it('creates, shows, lists, renames and deletes group labels, with GitLab statuses for bad input', async () => {
    const created = await gateway.post(groupLabels()).set(asRoot).send({ name: 'team', color: 'navy', description: 'The *team*' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'team',
      color: '#000080',
      text_color: '#FFFFFF',
      description: 'The *team*',
      description_html: '<p>The <em>team</em></p>',
      subscribed: false,
    });
    const duplicate = await gateway.post(groupLabels()).set(asRoot).send({ name: 'team', color: '#fff' });
    expect([duplicate.status, duplicate.body]).toEqual([409, { message: 'Label already exists' }]);
    const badColor = await gateway.post(groupLabels()).set(asRoot).send({ name: 'x', color: 'reddish' });
    expect([badColor.status, badColor.body]).toEqual([400, { message: { color: ['must be a valid color code'] } }]);
    expect((await gateway.post(groupLabels()).set(asRoot).send({ color: '#fff' })).body).toEqual({ error: 'name is missing' });
    expect((await gateway.post(groupLabels()).set(guestHeaders).send({ name: 'x', color: '#fff' })).status).toBe(404);
    expect((await gateway.get(`${groupLabels()}/team`).set(asRoot)).body.id).toBe(created.body.id);
    expect((await gateway.get(`${groupLabels()}/${created.body.id}`).set(asRoot)).body.name).toBe('team');
    const unknown = await gateway.get(`${groupLabels()}/nope`).set(asRoot);
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Label Not Found' }]);
    expect((await gateway.put(`${groupLabels()}/team`).set(asRoot).send({})).status).toBe(400);
    const listed = await gateway.get(groupLabels()).set(asRoot);
    expect(listed.status).toBe(200);
    expect(listed.body.map((label: { name: string }) => label.name)).toEqual(['team']);
    const temporary = await gateway.post(groupLabels()).set(asRoot).send({ name: 'temporary', color: '#fff' });
    expect((await gateway.delete(`${groupLabels()}/${temporary.body.id}`).set(asRoot)).status).toBe(204);
    expect((await gateway.get(`${groupLabels()}/temporary`).set(asRoot)).status).toBe(404);
  });

  it("lets the group's projects use its labels on merge requests and issues without copying them", async () => {
    const projectLabels = await gateway.get(`/api/v4/projects/${boardId}/labels`).set(asRoot);
    const team = projectLabels.body.find((label: { name: string }) => label.name === 'team');
    expect(team).toMatchObject({ color: '#000080', is_project_label: false });
    const own = await gateway.get(`/api/v4/projects/${boardId}/labels?include_ancestor_groups=false`).set(asRoot);
    expect(own.body.map((label: { name: string }) => label.name)).not.toContain('team');
    expect((await gateway.get(`/api/v4/projects/${boardId}/labels/team`).set(asRoot)).body.id).toBe(team.id);

    const labelled = await gateway.put(`/api/v4/projects/${boardId}/merge_requests/2`).set(asRoot).send({ add_labels: 'team' });
    expect(labelled.body.labels).toEqual(['team']);
    const issue = await gateway.post(`/api/v4/projects/${boardId}/issues`).set(asRoot).send({ title: 'Team work', labels: 'team' });
    expect(issue.body.labels).toEqual(['team']);
    const after = await gateway.get(`/api/v4/projects/${boardId}/labels?include_ancestor_groups=false`).set(asRoot);
    expect(after.body.map((label: { name: string }) => label.name)).not.toContain('team');
    const detailed = await gateway.get(`/api/v4/projects/${boardId}/merge_requests?iids[]=2&with_labels_details=true`).set(asRoot);
    expect(detailed.body[0].labels).toEqual([expect.objectContaining({ id: team.id, name: 'team', color: '#000080' })]);
    const issues = await gateway.get(`/api/v4/projects/${boardId}/issues?labels=team&with_labels_details=true`).set(asRoot);
    expect(issues.body[0].labels).toEqual([expect.objectContaining({ id: team.id, name: 'team' })]);

    // Renaming the group label renames it on the merge requests of its projects; deleting it takes it off.
    const renamed = await gateway.put(`${groupLabels()}/team`).set(asRoot).send({ new_name: 'squad', color: '#FFFF66' });
    expect(renamed.body).toMatchObject({ id: team.id, name: 'squad', color: '#FFFF66', text_color: '#1F1E24' });
    expect((await gateway.get(`/api/v4/projects/${boardId}/merge_requests/2`).set(asRoot)).body.labels).toEqual(['squad']);
    expect((await gateway.delete(`${groupLabels()}/squad`).set(asRoot)).status).toBe(204);
    expect((await gateway.get(`/api/v4/projects/${boardId}/merge_requests/2`).set(asRoot)).body.labels).toEqual([]);
  });
});

describe('user counts', () => {
  it('counts the open issues assigned to the caller', async () => {
    const rootId = (await gateway.get('/api/v4/user').set(asRoot)).body.id;
    const before = (await gateway.get('/api/v4/user_counts').set(asRoot)).body;
    const issue = await gateway
      .post(`/api/v4/projects/${projectId}/issues`)
      .set(asRoot)
      .send({ title: 'Mine', assignee_ids: [rootId] });
    expect(issue.status).toBe(201);
    expect(issue.body.assignees.map((user: { id: number }) => user.id)).toEqual([rootId]);
    const counted = await gateway.get('/api/v4/user_counts').set(asRoot);
    expect(counted.body).toMatchObject({ assigned_issues: before.assigned_issues + 1, issues: before.issues + 1 });
    expect(counted.body.assigned_issues).toBeGreaterThan(0);
    expect(
      (await gateway.put(`/api/v4/projects/${projectId}/issues/${issue.body.iid}`).set(asRoot).send({ state_event: 'close' })).status,
    ).toBe(200);
    expect((await gateway.get('/api/v4/user_counts').set(asRoot)).body).toMatchObject({
      assigned_issues: before.assigned_issues,
      issues: before.issues,
    });
  });
});

describe("group milestones, label subscriptions and issues' links through the gateway", () => {
  it("plans a group's project's issues with the group's milestones, lists them, and links and follows its issues", async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Planners', path: 'planners' });
    expect(group.status).toBe(201);
    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'plan', path: 'plan', namespace_id: group.body.id });
    expect(project.status).toBe(201);
    const milestone = await gateway
      .post(`/api/v4/groups/${group.body.id}/milestones`)
      .set(asRoot)
      .send({ title: 'Q1', due_date: '2020-01-01T00:00:00Z' });
    expect(milestone.status).toBe(201);
    expect(milestone.body).toMatchObject({ group_id: group.body.id, due_date: '2020-01-01' });
    const first = await gateway
      .post(`/api/v4/projects/${project.body.id}/issues`)
      .set(asRoot)
      .send({ title: 'First', milestone_id: milestone.body.id });
    expect(first.body.milestone).toMatchObject({ id: milestone.body.id, title: 'Q1' });
    const second = await gateway.post(`/api/v4/projects/${project.body.id}/issues`).set(asRoot).send({ title: 'Second' });
    const planned = await gateway.get(`/api/v4/groups/planners/milestones/${milestone.body.id}/issues`).set(asRoot);
    expect(planned.body.map((issue: { title: string }) => issue.title)).toEqual(['First']);

    const link = await gateway
      .post(`/api/v4/projects/${project.body.id}/issues/${first.body.iid}/links`)
      .set(asRoot)
      .send({ target_project_id: project.body.id, target_issue_iid: second.body.iid, link_type: 'blocks' });
    expect(link.status).toBe(201);
    const linked = await gateway.get(`/api/v4/projects/${project.body.id}/issues/${second.body.iid}/links`).set(asRoot);
    expect(linked.body.map((issue: { iid: number; link_type: string }) => [issue.iid, issue.link_type])).toEqual([
      [first.body.iid, 'is_blocked_by'],
    ]);
    const participants = await gateway.get(`/api/v4/projects/${project.body.id}/issues/${first.body.iid}/participants`).set(asRoot);
    expect(participants.body.map((user: { username: string }) => user.username)).toEqual(['root']);

    await gateway.post(`/api/v4/groups/${group.body.id}/labels`).set(asRoot).send({ name: 'team', color: '#00ff00' });
    const subscribed = await gateway.post(`/api/v4/groups/${group.body.id}/labels/team/subscribe`).set(asRoot);
    expect([subscribed.status, subscribed.body.subscribed]).toEqual([201, true]);
    const renamed = await gateway.put(`/api/v4/groups/${group.body.id}/labels`).set(asRoot).send({ name: 'team', new_name: 'crew' });
    expect(renamed.body).toMatchObject({ name: 'crew', subscribed: true });
  });
});

describe('cross references through the gateway', () => {
  it('notes a merge request of another project that mentions an issue on it, for those who may read it, and lists it as related', async () => {
    const other = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'mentions', path: 'mentions', visibility: 'private' });
    expect(other.status).toBe(201);
    const files = `/api/v4/projects/${other.body.id}/repository`;
    expect(
      (await gateway.post(`${files}/files/README.md`).set(asRoot).send({ branch: 'main', content: 'one\n', commit_message: 'Add README' }))
        .status,
    ).toBe(201);
    const change = await gateway
      .post(`${files}/commits`)
      .set(asRoot)
      .send({
        branch: 'feature',
        start_branch: 'main',
        commit_message: 'Change',
        actions: [{ action: 'update', file_path: 'README.md', content: 'two\n' }],
      });
    expect(change.status).toBe(201);
    const mentioning = await gateway
      .post(`/api/v4/projects/${other.body.id}/merge_requests`)
      .set(asRoot)
      .send({ source_branch: 'feature', target_branch: 'main', title: 'Mention', description: `Relates to ${projectPath}#3` });
    expect(mentioning.status).toBe(201);

    // Written with the merge request: read at once. Its project is in the same namespace, named by its path.
    // The tracker's own merge requests that mention it (!1, and the one into side-target) come first.
    const notes = await gateway.get(`/api/v4/projects/${projectId}/issues/3/notes?sort=asc`).set(asRoot);
    const mentions = notes.body.filter((note: { system: boolean }) => note.system).map((note: { body: string }) => note.body);
    expect(mentions).toHaveLength(3);
    expect(mentions[0]).toBe('mentioned in merge request !1');
    expect(mentions[2]).toBe('mentioned in merge request mentions!1');
    const related = await gateway.get(`/api/v4/projects/${projectId}/issues/3/related_merge_requests`).set(asRoot);
    expect(related.status).toBe(200);
    const relatedOnes = related.body.map((mergeRequest: { project_id: number; iid: number }) => [
      mergeRequest.project_id,
      mergeRequest.iid,
    ]);
    expect(relatedOnes).toHaveLength(3);
    expect(relatedOnes[0]).toEqual([projectId, 1]);
    expect(relatedOnes[2]).toEqual([other.body.id, 1]);

    // A guest of the tracker reads neither merge request: their notes are hidden from them.
    const guestNotes = await gateway.get(`/api/v4/projects/${projectId}/issues/3/notes`).set(guestHeaders);
    expect(guestNotes.status).toBe(200);
    expect(guestNotes.body.filter((note: { body: string }) => note.body.startsWith('mentioned in'))).toEqual([]);
    expect((await gateway.get(`/api/v4/projects/${projectId}/issues/3/related_merge_requests`).set(guestHeaders)).body).toEqual([]);
  });
});
