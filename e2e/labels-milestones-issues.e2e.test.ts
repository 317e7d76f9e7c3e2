/**
 * Labels, milestones and issues through the real gateway, and what merge requests do to issues:
 * `closes_issues` from closing references in a merge request's description and commits (pushed
 * with the git CLI), and a merge into the default branch closing them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';
import { gitRemote, runGitCli } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
let projectId: number;
let guestHeaders: { 'PRIVATE-TOKEN': string };
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
const projectPath = 'root/tracker';
const git = (args: string[], cwd = work) => runGitCli(args, { cwd, home: work });

async function commit(clone: string, file: string, message: string): Promise<void> {
  writeFileSync(path.join(clone, file), `${message}\n`);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'e2e-issues-'));
  // A missing git is a failure that says how to install it, not a skip.
  await git(['--version']);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'tracker', path: 'tracker', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  const guest = await gateway
    .post('/api/v4/users')
    .set(asRoot)
    .send({ email: 'tracker-guest@example.com', name: 'Guest', username: 'tracker-guest', password: 'a-long-enough-password' });
  const token = await gateway
    .post(`/api/v4/users/${guest.body.id}/personal_access_tokens`)
    .set(asRoot)
    .send({ name: 'all', scopes: ['api'] });
  guestHeaders = { 'PRIVATE-TOKEN': token.body.token };
  expect(
    (await gateway.post(`/api/v4/projects/${projectId}/members`).set(asRoot).send({ user_id: guest.body.id, access_level: 10 })).status,
  ).toBe(201);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
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
