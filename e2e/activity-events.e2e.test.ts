/**
 * Activity events through the real gateway: a push with the git CLI and a merge request opened
 * and merged through the API become activity events in audit (by way of review's events on
 * Kafka), shown to the project's members and hidden from everyone else.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
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

let git: Git;

interface EventBody {
  action_name: string;
  author_username: string;
  target_type: string | null;
  target_title: string | null;
  push_data?: { ref: string; action: string; commit_count: number; commit_title: string | null };
  author: unknown;
}

let developer: E2eUser;
let reporter: E2eUser;
let outsider: E2eUser;
let projectId: number;

beforeAll(async () => {
  work = createWorkDir('activity');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review', 'audit'] });
  gateway = request(platform.url);
  developer = await createUserWithToken(gateway, 'activity-dev');
  reporter = await createUserWithToken(gateway, 'activity-reporter', { scopes: ['read_user'] });
  outsider = await createUserWithToken(gateway, 'activity-outsider');
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'feed', path: 'feed', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  await addProjectMember(gateway, { projectId, userId: developer.id, accessLevel: 30 });
  await addProjectMember(gateway, { projectId, userId: reporter.id, accessLevel: 20 });

  expect((await git(['clone', '-q', gitRemote(platform.url, developer.token, 'root/feed'), 'feed'])).code).toBe(0);
  const clone = path.join(work, 'feed');
  writeFileSync(path.join(clone, 'README.md'), 'hello\n');
  expect((await git(['add', 'README.md'], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', 'Initial commit'], clone)).code).toBe(0);
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
  expect((await git(['checkout', '-q', '-b', 'feature'], clone)).code).toBe(0);
  writeFileSync(path.join(clone, 'feature.txt'), 'a feature\n');
  expect((await git(['add', 'feature.txt'], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', 'Add the feature'], clone)).code).toBe(0);
  expect((await git(['push', '-q', 'origin', 'feature'], clone)).code).toBe(0);

  const opened = await gateway
    .post(`/api/v4/projects/${projectId}/merge_requests`)
    .set(developer.headers)
    .send({ source_branch: 'feature', target_branch: 'main', title: 'Add the feature' });
  expect(opened.status).toBe(201);
  expect((await gateway.put(`/api/v4/projects/${projectId}/merge_requests/${opened.body.iid}/merge`).set(asRoot)).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('activity events through the gateway', () => {
  it('shows the pushes, the merge request and its merge to a member of the project, newest first', async () => {
    const events = await waitFor(
      async () => {
        const response = await gateway.get(`/api/v4/projects/${projectId}/events`).set(reporter.headers);
        const body = response.body as EventBody[];
        return response.status === 200 && body.some((event) => event.action_name === 'accepted') ? body : undefined;
      },
      { what: 'the merge among the project events' },
    );
    const byAction = (name: string) => events.filter((event) => event.action_name === name);
    expect(byAction('accepted')).toEqual([
      expect.objectContaining({ author_username: 'root', target_type: 'MergeRequest', target_title: 'Add the feature' }),
    ]);
    expect(byAction('opened')).toEqual([expect.objectContaining({ author_username: 'activity-dev', target_type: 'MergeRequest' })]);
    expect(byAction('pushed new').map((event) => [event.author_username, event.push_data?.ref, event.push_data?.commit_title])).toEqual(
      expect.arrayContaining([
        ['activity-dev', 'main', 'Initial commit'],
        ['activity-dev', 'feature', 'Add the feature'],
      ]),
    );
    // The merge moved main: a push by the merging user, as GitLab records it.
    await waitFor(
      async () => {
        const response = await gateway.get(`/api/v4/projects/${projectId}/events`).query({ action: 'pushed' }).set(reporter.headers);
        return (response.body as EventBody[]).some((event) => event.action_name === 'pushed to' && event.author_username === 'root')
          ? true
          : undefined;
      },
      { what: "the merge's push to main" },
    );
    for (const event of events) expect(gitlabSchemaErrors('user/basic.json', event.author)).toEqual([]);
  });

  it("lists a member's events to other members, and nothing of a private project to anyone else", async () => {
    const seen = await gateway.get(`/api/v4/users/${developer.username}/events`).set(reporter.headers);
    expect(seen.status).toBe(200);
    expect((seen.body as EventBody[]).map((event) => event.action_name)).toEqual(
      expect.arrayContaining(['opened', 'pushed new', 'joined']),
    );
    const hidden = await gateway.get(`/api/v4/users/${developer.username}/events`).set(outsider.headers);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual([]);
    expect((await gateway.get(`/api/v4/users/${developer.id}/events`)).body).toEqual([]);
    expect((await gateway.get(`/api/v4/projects/${projectId}/events`).set(outsider.headers)).status).toBe(404);
    expect((await gateway.get(`/api/v4/projects/${projectId}/events`)).status).toBe(404);
  });

  it("lists the caller's own events, and with scope=all everybody's in the caller's projects", async () => {
    const own = await gateway.get('/api/v4/events').set(developer.headers);
    expect((own.body as EventBody[]).every((event) => event.author_username === 'activity-dev')).toBe(true);
    const all = await gateway.get('/api/v4/events').query({ scope: 'all', target_type: 'merge_request' }).set(reporter.headers);
    expect((all.body as EventBody[]).map((event) => event.action_name)).toEqual(['accepted', 'opened']);
    expect((await gateway.get('/api/v4/events').query({ scope: 'all' }).set(outsider.headers)).body).toEqual([]);
  });

  it('needs a token with read_user, read_api or api', async () => {
    const narrow = await gateway
      .post(`/api/v4/users/${outsider.id}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 'git', scopes: ['read_repository'] });
    const refused = await gateway.get('/api/v4/events').set({ 'PRIVATE-TOKEN': narrow.body.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'insufficient_scope' });
  });
});
