/**
 * Webhooks through the real gateway, delivered to a real HTTP receiver on loopback: GitLab's
 * headers and payloads for pushes, merge requests (their changes and approvals), comments (on commits too, one no push described), issues,
 * deployments, feature flags, external pipelines, system hooks (memberships, renames) and a group's own member, project and
 * subgroup events, branch filters, the secret token never shown back, failures recorded and not retried, resends with the
 * same Idempotency-Key and event UUID, auto-disabling and a test re-enabling, tests of project and group hooks with
 * GitLab's samples, and the local-address guard at save and at delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitCli, gitRemote, type Git } from './git-cli.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** The status the receiver answers, per path. */
const answers = new Map<string, number>();
/** Requests to paths starting with `/hanging` get no answer until the test ends them; `ended` once the sender gave up. */
const hanging: Array<{ answer: () => void; ended: boolean }> = [];
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
let work: string;
let git: Git;
let projectId: number;
let maintainer: Record<string, string>;
let maintainerId: number;
let developer: Record<string, string>;

/** Waits until `probe` holds. */
const until = (probe: () => Promise<boolean>) => waitFor(async () => ((await probe()) ? true : undefined), { timeoutMs: 60_000 });

const receivedAt = (hookPath: string) => received.filter((entry) => entry.path === hookPath);

async function setSettings(settings: Record<string, unknown>): Promise<void> {
  const response = await gateway.put('/api/v4/application/settings').set(asRoot).send(settings);
  expect(response.status).toBe(200);
}

/** Creates a hook once the hooks service has seen the settings allowing local requests. */
async function createHook(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  let created: request.Response | undefined;
  await until(async () => {
    created = await gateway.post(`/api/v4/projects/${projectId}/hooks`).set(maintainer).send(body);
    return created.status === 201;
  });
  return created?.body as Record<string, unknown>;
}

async function push(branch: string): Promise<void> {
  writeFileSync(path.join(work, 'README.md'), `${branch} ${Date.now()}\n`);
  expect((await git(['commit', '-q', '-am', `Change for ${branch}`])).code).toBe(0);
  expect((await git(['push', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/hooked'), `HEAD:refs/heads/${branch}`])).code).toBe(0);
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      received.push({ path: url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      if (url.startsWith('/hanging')) {
        const held = { answer: () => res.writeHead(200).end(), ended: false };
        res.on('close', () => (held.ended = true));
        hanging.push(held);
        return;
      }
      res.writeHead(answers.get(url) ?? 200, { 'Content-Type': 'text/plain' }).end(`answered ${url}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  work = createWorkDir('webhooks');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review', 'admin', 'hooks', 'delivery'] });
  gateway = request(platform.url);
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Hooked', path: 'hooked', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id as number;
  const maintainerUser = await createUserWithToken(gateway, 'hooks-maintainer', { memberships: [{ projectId, accessLevel: 40 }] });
  maintainer = maintainerUser.headers;
  maintainerId = maintainerUser.id;
  developer = (await createUserWithToken(gateway, 'hooks-developer', { memberships: [{ projectId, accessLevel: 30 }] })).headers;
  expect((await git(['init', '-q', '--initial-branch=main', '.'])).code).toBe(0);
  writeFileSync(path.join(work, 'README.md'), 'Hooked\n');
  expect((await git(['add', 'README.md'])).code).toBe(0);
  expect((await git(['commit', '-q', '-m', 'Add README'])).code).toBe(0);
}, 180_000);

afterAll(async () => {
  for (const held of hanging) if (!held.ended) held.answer();
  await platform?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  removeWorkDir(work);
});

describe('webhooks', () => {
  it('refuses a hook to loopback while local requests are not allowed', async () => {
    const refused = await gateway
      .post(`/api/v4/projects/${projectId}/hooks`)
      .set(maintainer)
      .send({ url: `${receiverUrl}/refused` });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: 'Invalid url given' });
    const metadata = await gateway
      .post(`/api/v4/projects/${projectId}/hooks`)
      .set(maintainer)
      .send({ url: 'http://169.254.169.254/latest' });
    expect(metadata.status).toBe(422);
  });

  it('lets maintainers manage project hooks, never showing the token back', async () => {
    await setSettings({ allow_local_requests_from_web_hooks_and_services: true });
    const forbidden = await gateway
      .post(`/api/v4/projects/${projectId}/hooks`)
      .set(developer)
      .send({ url: `${receiverUrl}/dev` });
    expect(forbidden.status).toBe(403);
    const hook = await createHook({
      url: `${receiverUrl}/push`,
      token: 's3cret',
      merge_requests_events: true,
      custom_headers: [{ key: 'X-Custom', value: 'custom-value' }],
    });
    expect(hook).toMatchObject({
      url: `${receiverUrl}/push`,
      project_id: projectId,
      push_events: true,
      tag_push_events: false,
      merge_requests_events: true,
      enable_ssl_verification: true,
      alert_status: 'executable',
      disabled_until: null,
      push_events_branch_filter: '',
      branch_filter_strategy: 'wildcard',
      custom_headers: [{ key: 'X-Custom' }],
    });
    expect(JSON.stringify(hook)).not.toContain('s3cret');
    expect(JSON.stringify(hook)).not.toContain('custom-value');
    const listed = await gateway.get(`/api/v4/projects/${projectId}/hooks`).set(maintainer);
    expect(listed.status).toBe(200);
    expect(listed.body.map((entry: { id: number }) => entry.id)).toEqual([hook.id]);
    expect((await gateway.get(`/api/v4/projects/${projectId}/hooks`).set(developer)).status).toBe(403);
    const updated = await gateway.put(`/api/v4/projects/${projectId}/hooks/${hook.id}`).set(maintainer).send({ tag_push_events: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ tag_push_events: true, push_events: true, url: `${receiverUrl}/push` });
    expect((await gateway.put(`/api/v4/projects/${projectId}/hooks/${hook.id}`).set(maintainer).send({})).status).toBe(400);
  });

  it('sends a push as GitLab does, only to hooks whose branch filter matches', async () => {
    await createHook({ url: `${receiverUrl}/release-only`, push_events_branch_filter: 'release/*' });
    await push('main');
    await until(async () => receivedAt('/push').length >= 1);
    const [delivery] = receivedAt('/push');
    expect(delivery?.headers).toMatchObject({
      'x-gitlab-event': 'Push Hook',
      'x-gitlab-token': 's3cret',
      'x-gitlab-instance': platform.url,
      'x-custom': 'custom-value',
      'content-type': 'application/json',
    });
    expect(delivery?.headers['user-agent']).toMatch(/^GitLab\/\d+\.\d+/);
    expect(delivery?.headers['x-gitlab-event-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery?.headers['x-gitlab-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery?.body).toMatchObject({
      object_kind: 'push',
      event_name: 'push',
      ref: 'refs/heads/main',
      // The first push's default branch was not protected yet when it was pushed.
      ref_protected: false,
      before: '0000000000000000000000000000000000000000',
      user_username: 'root',
      project_id: projectId,
      project: { id: projectId, path_with_namespace: 'root/hooked', web_url: `${platform.url}/root/hooked`, visibility_level: 0 },
      repository: { name: 'Hooked', git_http_url: `${platform.url}/root/hooked.git` },
      total_commits_count: 2,
    });
    const commits = delivery?.body.commits as Array<Record<string, unknown>>;
    expect(commits.map((commit) => commit.title)).toEqual(['Add README', 'Change for main']);
    expect(commits[1]).toEqual({
      id: delivery?.body.after,
      message: 'Change for main\n',
      title: 'Change for main',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
      url: `${platform.url}/root/hooked/-/commit/${String(delivery?.body.after)}`,
      author: { name: 'Dev', email: 'dev@example.com' },
      added: [],
      modified: ['README.md'],
      removed: [],
    });
    expect(commits[0]).toMatchObject({ added: ['README.md'], modified: [], removed: [] });
    const protectedBranch = await gateway.post(`/api/v4/projects/${projectId}/protected_branches`).set(asRoot).send({ name: 'release/*' });
    expect(protectedBranch.status).toBe(201);
    await push('release/1.0');
    await until(async () => receivedAt('/release-only').length >= 1);
    expect(receivedAt('/release-only').map((entry) => [entry.body.ref, entry.body.ref_protected])).toEqual([
      ['refs/heads/release/1.0', true],
    ]);
  });

  it('sends merge request events with their action', async () => {
    await push('feature');
    const mergeRequest = await gateway
      .post(`/api/v4/projects/${projectId}/merge_requests`)
      .set(asRoot)
      .send({ source_branch: 'feature', target_branch: 'main', title: 'Add a feature', description: 'It adds a feature.' });
    expect(mergeRequest.status).toBe(201);
    await until(async () => receivedAt('/push').some((entry) => entry.body.object_kind === 'merge_request'));
    const delivery = receivedAt('/push').find((entry) => entry.body.object_kind === 'merge_request');
    expect(delivery?.headers['x-gitlab-event']).toBe('Merge Request Hook');
    expect(delivery?.body).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { username: 'root', email: '[REDACTED]' },
      project: { id: projectId },
      object_attributes: {
        iid: mergeRequest.body.iid,
        title: 'Add a feature',
        source_branch: 'feature',
        target_branch: 'main',
        state: 'opened',
        state_id: 1,
        action: 'open',
        url: `${platform.url}/root/hooked/-/merge_requests/${mergeRequest.body.iid}`,
        description: 'It adds a feature.',
        source_project_id: projectId,
        target_project_id: projectId,
        author_id: mergeRequest.body.author.id,
        assignee_ids: [],
        reviewer_ids: [],
        milestone_id: null,
        created_at: (mergeRequest.body.created_at as string).replace(/\.\d{3}Z$/, 'Z'),
        last_commit: {
          id: mergeRequest.body.sha,
          message: 'Change for feature\n',
          title: 'Change for feature',
          timestamp: expect.any(String),
          url: `${platform.url}/root/hooked/-/commit/${mergeRequest.body.sha}`,
          author: { name: expect.any(String), email: expect.any(String) },
        },
      },
    });

    // GitLab's merge request test sends the project's latest merge request, opened by the tester.
    const hook = (await gateway.get(`/api/v4/projects/${projectId}/hooks`).set(maintainer)).body.find(
      (entry: { url: string }) => entry.url === `${receiverUrl}/push`,
    ) as { id: number };
    const test = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/test/merge_requests_events`).set(maintainer);
    expect(test.status).toBe(201);
    const sample = receivedAt('/push').filter((entry) => entry.body.object_kind === 'merge_request')[1];
    expect(sample?.headers['x-gitlab-event']).toBe('Merge Request Hook');
    expect(sample?.body).toMatchObject({
      user: { username: 'hooks-maintainer' },
      object_attributes: { iid: mergeRequest.body.iid, title: 'Add a feature', action: 'open' },
    });
  });

  it('sends the changes of a merge request, its comments, and its approvals as GitLab does', async () => {
    await createHook({ url: `${receiverUrl}/reviews`, push_events: false, merge_requests_events: true, note_events: true });
    await push('reviewed');
    const created = await gateway
      .post(`/api/v4/projects/${projectId}/merge_requests`)
      .set(asRoot)
      .send({ source_branch: 'reviewed', target_branch: 'main', title: 'Review me' });
    expect(created.status).toBe(201);
    const mergeRequest = `/api/v4/projects/${projectId}/merge_requests/${created.body.iid}`;
    const ofAction = (action: string) =>
      receivedAt('/reviews').filter(
        (entry) => entry.body.object_kind === 'merge_request' && (entry.body.object_attributes as { action: string }).action === action,
      );
    await until(async () => ofAction('open').length === 1);
    expect(ofAction('open')[0]?.body.changes).toEqual({});

    const label = await gateway
      .post(`/api/v4/projects/${projectId}/labels`)
      .set(asRoot)
      .send({ name: 'API', color: '#ffffff', description: 'API related issues' });
    expect(label.status).toBe(201);
    const updated = await gateway
      .put(mergeRequest)
      .set(asRoot)
      .send({ title: 'Draft: Review me', assignee_ids: [maintainerId], labels: 'API' });
    expect(updated.status).toBe(200);
    await until(async () => ofAction('update').length === 1);
    const update = ofAction('update')[0]?.body;
    const assignee = {
      id: maintainerId,
      name: 'hooks-maintainer',
      username: 'hooks-maintainer',
      avatar_url: `${platform.url}/assets/no_avatar.png`,
      email: '[REDACTED]',
    };
    const apiLabel = {
      id: label.body.id,
      title: 'API',
      color: '#ffffff',
      project_id: projectId,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/Z$/),
      template: false,
      description: 'API related issues',
      type: 'ProjectLabel',
      group_id: null,
    };
    expect(update).toMatchObject({
      object_attributes: {
        title: 'Draft: Review me',
        draft: true,
        assignee_ids: [maintainerId],
        assignee_id: maintainerId,
        labels: [apiLabel],
      },
      labels: [apiLabel],
      changes: {
        title: { previous: 'Review me', current: 'Draft: Review me' },
        draft: { previous: false, current: true },
        assignees: { previous: [], current: [assignee] },
        labels: { previous: [], current: [apiLabel] },
        updated_at: { previous: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/), current: expect.any(String) },
      },
      assignees: [assignee],
    });
    expect(update).not.toHaveProperty('reviewers');

    const note = await gateway.post(`${mergeRequest}/notes`).set(maintainer).send({ body: 'This MR needs work.' });
    expect(note.status).toBe(201);
    await until(async () => receivedAt('/reviews').some((entry) => entry.body.object_kind === 'note'));
    const comment = receivedAt('/reviews').find((entry) => entry.body.object_kind === 'note');
    expect(comment?.headers['x-gitlab-event']).toBe('Note Hook');
    expect(comment?.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { username: 'hooks-maintainer', email: '[REDACTED]' },
      project_id: projectId,
      project: { id: projectId, path_with_namespace: 'root/hooked' },
      object_attributes: {
        id: note.body.id,
        note: 'This MR needs work.',
        noteable_type: 'MergeRequest',
        noteable_id: created.body.id,
        author_id: maintainerId,
        system: false,
        action: 'create',
        url: `${platform.url}/root/hooked/-/merge_requests/${created.body.iid}#note_${note.body.id}`,
      },
      merge_request: { id: created.body.id, iid: created.body.iid, title: 'Draft: Review me', source_branch: 'reviewed', state: 'opened' },
    });

    expect((await gateway.post(`${mergeRequest}/approve`).set(maintainer)).status).toBe(201);
    await until(async () => ofAction('approved').length === 1);
    expect(ofAction('approved')[0]?.body).toMatchObject({
      user: { username: 'hooks-maintainer' },
      object_attributes: { iid: created.body.iid, action: 'approved' },
      changes: {},
    });
    expect((await gateway.post(`${mergeRequest}/unapprove`).set(maintainer)).status).toBe(201);
    await until(async () => ofAction('unapproved').length === 1);
    expect(ofAction('unapproved')[0]?.headers['x-gitlab-event']).toBe('Merge Request Hook');
  });

  it('sends deployments as they run and finish, and feature flags as they are turned off', async () => {
    await createHook({ url: `${receiverUrl}/delivery`, push_events: false, deployment_events: true, feature_flag_events: true });
    const head = (await gateway.get(`/api/v4/projects/${projectId}/repository/branches/main`).set(maintainer)).body.commit as {
      id: string;
      title: string;
    };
    const sha = head.id;
    const deployment = await gateway
      .post(`/api/v4/projects/${projectId}/deployments`)
      .set(maintainer)
      .send({ environment: 'staging', sha, ref: 'main', tag: false, status: 'running' });
    expect(deployment.status).toBe(201);
    const finished = await gateway
      .put(`/api/v4/projects/${projectId}/deployments/${deployment.body.id}`)
      .set(maintainer)
      .send({ status: 'success' });
    expect(finished.status).toBe(200);
    const deployments = () => receivedAt('/delivery').filter((entry) => entry.body.object_kind === 'deployment');
    await until(async () => deployments().length === 2);
    expect(deployments().map((entry) => entry.body.status)).toEqual(['running', 'success']);
    const [, success] = deployments();
    expect(success?.headers['x-gitlab-event']).toBe('Deployment Hook');
    expect(success?.body).toEqual({
      object_kind: 'deployment',
      status: 'success',
      status_changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/),
      deployment_id: deployment.body.id,
      deployable_id: null,
      deployable_url: null,
      environment: 'staging',
      environment_tier: 'staging',
      environment_slug: 'staging',
      environment_external_url: null,
      project: expect.objectContaining({ id: projectId, path_with_namespace: 'root/hooked' }),
      short_sha: sha.slice(0, 8),
      user: {
        id: maintainerId,
        name: 'hooks-maintainer',
        username: 'hooks-maintainer',
        avatar_url: `${platform.url}/assets/no_avatar.png`,
        email: '[REDACTED]',
      },
      user_url: `${platform.url}/hooks-maintainer`,
      commit_url: `${platform.url}/root/hooked/-/commit/${sha}`,
      commit_title: head.title,
      ref: 'main',
    });
    // GitLab's deployment test sends the project's latest deployment, as reaching its status now.
    const hook = (await gateway.get(`/api/v4/projects/${projectId}/hooks`).set(maintainer)).body.find(
      (entry: { url: string }) => entry.url === `${receiverUrl}/delivery`,
    ) as { id: number };
    const test = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/test/deployment_events`).set(maintainer);
    expect(test.status).toBe(201);
    expect(deployments()).toHaveLength(3);
    expect(deployments()[2]?.headers['x-gitlab-event']).toBe('Deployment Hook');
    expect(deployments()[2]?.body).toEqual({ ...success?.body, status_changed_at: expect.stringMatching(/ \+0000$/) });

    const flag = await gateway
      .post(`/api/v4/projects/${projectId}/feature_flags`)
      .set(maintainer)
      .send({ name: 'hooked_flag', description: 'Guards the hook', version: 'new_version_flag' });
    expect(flag.status).toBe(201);
    expect(
      (await gateway.put(`/api/v4/projects/${projectId}/feature_flags/hooked_flag`).set(maintainer).send({ active: false })).status,
    ).toBe(200);
    await until(async () => receivedAt('/delivery').some((entry) => entry.body.object_kind === 'feature_flag'));
    const flags = receivedAt('/delivery').filter((entry) => entry.body.object_kind === 'feature_flag');
    expect(flags).toHaveLength(1);
    expect(flags[0]?.headers['x-gitlab-event']).toBe('Feature Flag Hook');
    expect(flags[0]?.body).toEqual({
      object_kind: 'feature_flag',
      project: expect.objectContaining({ id: projectId }),
      user: {
        id: maintainerId,
        name: 'hooks-maintainer',
        username: 'hooks-maintainer',
        avatar_url: `${platform.url}/assets/no_avatar.png`,
        email: '[REDACTED]',
      },
      user_url: `${platform.url}/hooks-maintainer`,
      // The API shows no id of a flag.
      object_attributes: { id: expect.any(Number), name: 'hooked_flag', description: 'Guards the hook', active: false },
    });
  });

  it("sends an external pipeline's status changes as GitLab's pipeline hook, with the pushed commit", async () => {
    await createHook({ url: `${receiverUrl}/pipelines`, push_events: true, pipeline_events: true });
    await push('piped');
    await until(async () => receivedAt('/pipelines').some((entry) => entry.body.ref === 'refs/heads/piped'));
    const sha = (await gateway.get(`/api/v4/projects/${projectId}/repository/branches/piped`).set(maintainer)).body.commit.id as string;
    for (const state of ['running', 'success']) {
      const posted = await gateway
        .post(`/api/v4/projects/${projectId}/statuses/${sha}`)
        .set(maintainer)
        .send({ state, ref: 'piped', name: 'external-ci' });
      expect(posted.status).toBe(201);
    }
    const pipelines = () => receivedAt('/pipelines').filter((entry) => entry.body.object_kind === 'pipeline');
    await until(async () => pipelines().length === 2);
    expect(pipelines().map((entry) => entry.body.object_attributes)).toEqual([
      expect.objectContaining({ status: 'running', detailed_status: 'running', finished_at: null, duration: null }),
      expect.objectContaining({ status: 'success', detailed_status: 'passed' }),
    ]);
    const [, success] = pipelines();
    expect(success?.headers['x-gitlab-event']).toBe('Pipeline Hook');
    const pipeline = (await gateway.get(`/api/v4/projects/${projectId}/pipelines`).set(maintainer).query({ sha })).body[0];
    // The first branch pushed becomes the default branch, protected by default.
    const protectedBranches = (await gateway.get(`/api/v4/projects/${projectId}/protected_branches`).set(maintainer)).body as Array<{
      name: string;
    }>;
    expect(success?.body).toEqual({
      object_kind: 'pipeline',
      object_attributes: {
        id: pipeline.id,
        iid: pipeline.iid,
        name: null,
        ref: 'piped',
        tag: false,
        sha,
        before_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        source: 'external',
        status: 'success',
        detailed_status: 'passed',
        stages: [],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
        finished_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
        duration: expect.any(Number),
        queued_duration: null,
        protected_ref: protectedBranches.some((branch) => branch.name === 'piped'),
        variables: [],
        url: `${platform.url}/root/hooked/-/pipelines/${pipeline.id}`,
      },
      merge_request: null,
      user: {
        id: maintainerId,
        name: 'hooks-maintainer',
        username: 'hooks-maintainer',
        avatar_url: `${platform.url}/assets/no_avatar.png`,
        email: '[REDACTED]',
      },
      project: expect.objectContaining({ id: projectId, path_with_namespace: 'root/hooked', ci_config_path: null }),
      commit: {
        id: sha,
        message: 'Change for piped\n',
        title: 'Change for piped',
        timestamp: expect.any(String),
        url: `${platform.url}/root/hooked/-/commit/${sha}`,
        author: { name: expect.any(String), email: expect.any(String) },
      },
      builds: [],
    });
    expect(success?.body.project).not.toHaveProperty('homepage');

    // GitLab's pipeline test sends the project's latest pipeline.
    const hook = (await gateway.get(`/api/v4/projects/${projectId}/hooks`).set(maintainer)).body.find(
      (entry: { url: string }) => entry.url === `${receiverUrl}/pipelines`,
    ) as { id: number };
    const test = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/test/pipeline_events`).set(maintainer);
    expect(test.status).toBe(201);
    expect(pipelines()).toHaveLength(3);
    expect(pipelines()[2]?.headers['x-gitlab-event']).toBe('Pipeline Hook');
    expect(pipelines()[2]?.body).toEqual(success?.body);
  });

  it('sends a comment on a commit with the commit, as GitLab does', async () => {
    await createHook({ url: `${receiverUrl}/commit-notes`, push_events: true, note_events: true });
    await push('commented');
    await until(async () => receivedAt('/commit-notes').some((entry) => entry.body.ref === 'refs/heads/commented'));
    const sha = (await gateway.get(`/api/v4/projects/${projectId}/repository/branches/commented`).set(maintainer)).body.commit.id as string;
    const comment = await gateway
      .post(`/api/v4/projects/${projectId}/repository/commits/${sha}/comments`)
      .set(maintainer)
      .send({ note: 'Looks right' });
    expect(comment.status).toBe(201);
    const notes = () => receivedAt('/commit-notes').filter((entry) => entry.body.object_kind === 'note');
    await until(async () => notes().length === 1);
    expect(notes()[0]?.headers['x-gitlab-event']).toBe('Note Hook');
    expect(notes()[0]?.body).toMatchObject({
      event_type: 'note',
      object_attributes: {
        note: 'Looks right',
        noteable_type: 'Commit',
        commit_id: sha,
        noteable_id: null,
        author_id: maintainerId,
        url: expect.stringMatching(new RegExp(`^${platform.url}/root/hooked/-/commit/${sha}#note_\\d+$`)),
      },
      commit: {
        id: sha,
        message: 'Change for commented\n',
        title: 'Change for commented',
        url: `${platform.url}/root/hooked/-/commit/${sha}`,
      },
    });

    // GitLab's note test sends the project's latest comment, made by the tester.
    const hook = (await gateway.get(`/api/v4/projects/${projectId}/hooks`).set(maintainer)).body.find(
      (entry: { url: string }) => entry.url === `${receiverUrl}/commit-notes`,
    ) as { id: number };
    const test = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/test/note_events`).set(asRoot);
    expect(test.status).toBe(201);
    expect(notes()).toHaveLength(2);
    expect(notes()[1]?.headers['x-gitlab-event']).toBe('Note Hook');
    expect(notes()[1]?.body).toEqual({ ...notes()[0]?.body, user: expect.objectContaining({ username: 'root' }) });
  });

  it('sends a comment on a commit no push described with the commit as review knows it', async () => {
    await createHook({ url: `${receiverUrl}/old-commit-notes`, push_events: false, note_events: true });
    // A push describes its newest twenty commits only: the first of these twenty-one is never described.
    for (let index = 1; index <= 21; index++) {
      writeFileSync(path.join(work, 'README.md'), `bulk ${index}\n`);
      expect((await git(['commit', '-q', '-am', `Bulk change ${index}`])).code).toBe(0);
    }
    expect((await git(['push', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/hooked'), 'HEAD:refs/heads/bulk'])).code).toBe(0);
    const oldest = (await git(['rev-parse', 'HEAD~20'])).output.trim();
    const comment = await gateway
      .post(`/api/v4/projects/${projectId}/repository/commits/${oldest}/comments`)
      .set(maintainer)
      .send({ note: 'Why this?' });
    expect(comment.status).toBe(201);
    await until(async () => receivedAt('/old-commit-notes').length === 1);
    expect(receivedAt('/old-commit-notes')[0]?.body).toMatchObject({
      object_kind: 'note',
      object_attributes: { note: 'Why this?', noteable_type: 'Commit', commit_id: oldest, noteable_id: null },
      commit: {
        id: oldest,
        message: 'Bulk change 1\n',
        title: 'Bulk change 1',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
        url: `${platform.url}/root/hooked/-/commit/${oldest}`,
        author: { name: 'Dev', email: 'dev@example.com' },
      },
    });
  });

  it('says whether a pushed tag is protected', async () => {
    await createHook({ url: `${receiverUrl}/tags`, push_events: false, tag_push_events: true });
    const protectedTag = await gateway.post(`/api/v4/projects/${projectId}/protected_tags`).set(maintainer).send({ name: 'release-*' });
    expect(protectedTag.status).toBe(201);
    for (const tag of ['release-1', 'nightly-1']) {
      expect((await git(['tag', tag])).code).toBe(0);
      expect((await git(['push', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/hooked'), `refs/tags/${tag}`])).code).toBe(0);
    }
    const tagPushes = () => receivedAt('/tags').filter((entry) => entry.body.object_kind === 'tag_push');
    await until(async () => tagPushes().length === 2);
    expect(tagPushes().map((entry) => [entry.body.ref, entry.body.ref_protected])).toEqual([
      ['refs/tags/release-1', true],
      ['refs/tags/nightly-1', false],
    ]);
  });

  it('sends issue events, a confidential issue only to hooks asking for confidential issues', async () => {
    await createHook({ url: `${receiverUrl}/issues`, push_events: false, issues_events: true });
    await createHook({ url: `${receiverUrl}/confidential`, push_events: false, confidential_issues_events: true });
    const issue = await gateway
      .post(`/api/v4/projects/${projectId}/issues`)
      .set(asRoot)
      .send({ title: 'Crash on save', description: 'It crashes.' });
    expect(issue.status).toBe(201);
    const secret = await gateway.post(`/api/v4/projects/${projectId}/issues`).set(asRoot).send({ title: 'Leak', confidential: true });
    expect(secret.status).toBe(201);
    await until(async () => receivedAt('/issues').length >= 1 && receivedAt('/confidential').length >= 1);
    const [delivery] = receivedAt('/issues');
    expect(delivery?.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(delivery?.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { username: 'root' },
      project: { id: projectId },
      object_attributes: {
        id: issue.body.id,
        iid: issue.body.iid,
        title: 'Crash on save',
        description: 'It crashes.',
        confidential: false,
        state: 'opened',
        state_id: 1,
        action: 'open',
        type: 'Issue',
        url: `${platform.url}/root/hooked/-/issues/${issue.body.iid}`,
      },
    });
    const [confidential] = receivedAt('/confidential');
    expect(confidential?.headers['x-gitlab-event']).toBe('Confidential Issue Hook');
    expect(confidential?.body).toMatchObject({
      event_type: 'confidential_issue',
      object_attributes: { title: 'Leak', confidential: true },
    });
    expect(receivedAt('/issues').map((entry) => (entry.body.object_attributes as { title: string }).title)).toEqual(['Crash on save']);
    expect(receivedAt('/confidential')).toHaveLength(1);

    const hook = (await gateway.get(`/api/v4/projects/${projectId}/hooks`).set(maintainer)).body.find(
      (entry: { url: string }) => entry.url === `${receiverUrl}/issues`,
    ) as { id: number };
    const untestable = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/test/feature_flag_events`).set(maintainer);
    expect(untestable.status).toBe(422);
    expect(untestable.body).toEqual({ message: 'Testing not available for this hook' });
  });

  it("sends other hooks' deliveries while a receiver hangs, and the hanging hook's next one only after it", async () => {
    await createHook({ url: `${receiverUrl}/hanging`, push_events_branch_filter: 'slow-*' });
    await createHook({ url: `${receiverUrl}/prompt`, push_events_branch_filter: 'prompt' });
    await push('slow-1');
    await push('slow-2');
    await until(async () => hanging.length === 1);
    const pushed = Date.now();
    await push('prompt');
    await until(async () => receivedAt('/prompt').length === 1);
    expect(Date.now() - pushed).toBeLessThan(5000);
    // The first delivery still hangs, and the hook's second waits for it.
    expect(hanging[0]?.ended).toBe(false);
    expect(receivedAt('/hanging').map((entry) => entry.body.ref)).toEqual(['refs/heads/slow-1']);
    hanging[0]?.answer();
    await until(async () => receivedAt('/hanging').length === 2);
    expect(receivedAt('/hanging').map((entry) => entry.body.ref)).toEqual(['refs/heads/slow-1', 'refs/heads/slow-2']);
    hanging[1]?.answer();
  });

  it('records a receiver failure without retrying it, disables the hook after four, and resends with the same keys', async () => {
    answers.set('/failing', 500);
    const hook = await createHook({ url: `${receiverUrl}/failing`, push_events_branch_filter: 'fail-*' });
    for (let index = 1; index <= 4; index++) await push(`fail-${index}`);
    await until(async () => receivedAt('/failing').length >= 4);
    await until(async () => {
      const shown = await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}`).set(maintainer);
      return shown.body.alert_status === 'temporarily_disabled';
    });
    const shown = await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}`).set(maintainer);
    expect(Date.parse(shown.body.disabled_until as string)).toBeGreaterThan(Date.now());
    // A fifth push while disabled is not sent; nothing was retried.
    await push('fail-5');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(receivedAt('/failing')).toHaveLength(4);

    const events = await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}/events`).set(maintainer);
    expect(events.status).toBe(200);
    expect(events.body).toHaveLength(4);
    expect(events.body[0]).toMatchObject({ trigger: 'push_hooks', response_status: '500', response_body: 'answered /failing' });
    expect(events.body[0].request_headers['X-Gitlab-Event']).toBe('Push Hook');
    const successful = await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}/events?status=successful`).set(maintainer);
    expect(successful.body).toEqual([]);

    const first = events.body[3] as { id: number; request_data: { ref: string } };
    const original = receivedAt('/failing').find((entry) => entry.body.ref === first.request_data.ref);
    answers.set('/failing', 200);
    const resent = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/events/${first.id}/resend`).set(maintainer);
    expect(resent.status).toBe(201);
    expect(resent.body).toEqual({ response_status: '200' });
    const again = receivedAt('/failing')[4];
    expect(again?.headers['idempotency-key']).toBe(original?.headers['idempotency-key']);
    expect(again?.headers['x-gitlab-event-uuid']).toBe(original?.headers['x-gitlab-event-uuid']);
    expect(again?.headers['x-gitlab-webhook-uuid']).not.toBe(original?.headers['x-gitlab-webhook-uuid']);
  });

  it('records a receiver that is down as an internal error, and resends once it is up', async () => {
    const down = createServer((_req, res) => res.writeHead(200).end('up again'));
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const { port } = down.address() as AddressInfo;
    await new Promise((resolve) => down.close(resolve));
    const hook = await createHook({ url: `http://127.0.0.1:${port}/down`, push_events_branch_filter: 'down' });
    await push('down');
    let events: request.Response | undefined;
    await until(async () => {
      events = await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}/events`).set(maintainer);
      return (events.body as unknown[]).length === 1;
    });
    const [failure] = events?.body as Array<{ id: number; response_status: string; trigger: string }>;
    expect(failure).toMatchObject({ trigger: 'push_hooks', response_status: 'internal error' });

    await new Promise<void>((resolve) => down.listen(port, '127.0.0.1', resolve));
    try {
      const resent = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/events/${failure?.id}/resend`).set(maintainer);
      expect(resent.status).toBe(201);
      expect(resent.body).toEqual({ response_status: '200' });
    } finally {
      await new Promise((resolve) => down.close(resolve));
    }
  });

  it('enables a disabled hook again after a successful test', async () => {
    answers.set('/tested', 500);
    const hook = await createHook({ url: `${receiverUrl}/tested` });
    for (let index = 0; index < 4; index++) {
      const test = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/test/push_events`).set(maintainer);
      expect(test.status).toBe(422);
    }
    expect((await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}`).set(maintainer)).body.alert_status).toBe(
      'temporarily_disabled',
    );
    answers.set('/tested', 200);
    const test = await gateway.post(`/api/v4/projects/${projectId}/hooks/${hook.id}/test/push_events`).set(maintainer);
    expect(test.status).toBe(201);
    expect(test.body).toEqual({ message: '201 Created' });
    expect((await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}`).set(maintainer)).body).toMatchObject({
      alert_status: 'executable',
      disabled_until: null,
    });
  });

  it('checks the address again at delivery once local requests are no longer allowed', async () => {
    const hook = await createHook({ url: `${receiverUrl}/guarded`, push_events_branch_filter: 'guarded' });
    await setSettings({ allow_local_requests_from_web_hooks_and_services: false });
    await until(async () => {
      const refused = await gateway
        .post(`/api/v4/projects/${projectId}/hooks`)
        .set(maintainer)
        .send({ url: `${receiverUrl}/probe` });
      return refused.status === 422;
    });
    await push('guarded');
    let events: request.Response | undefined;
    await until(async () => {
      events = await gateway.get(`/api/v4/projects/${projectId}/hooks/${hook.id}/events`).set(maintainer);
      return (events.body as unknown[]).length === 1;
    });
    expect(events?.body[0]).toMatchObject({ response_status: 'internal error' });
    expect(receivedAt('/guarded')).toEqual([]);
  });

  it("sends system hooks for memberships, with the member's email, and for a renamed group", async () => {
    const hook = await gateway
      .post('/api/v4/hooks')
      .set(asRoot)
      .send({ url: `${receiverUrl}/system-members` });
    expect(hook.status).toBe(201);
    const named = (eventName: string) => receivedAt('/system-members').filter((entry) => entry.body.event_name === eventName);
    const member = await createUserWithToken(gateway, 'hooks-member', { name: 'Hooks Member' });
    const added = await gateway.post(`/api/v4/projects/${projectId}/members`).set(asRoot).send({ user_id: member.id, access_level: 30 });
    expect(added.status).toBe(201);
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Hooked Group', path: 'hooked-group' });
    expect(group.status).toBe(201);
    expect(
      (await gateway.post(`/api/v4/groups/${group.body.id}/members`).set(asRoot).send({ user_id: member.id, access_level: 40 })).status,
    ).toBe(201);
    expect((await gateway.put(`/api/v4/groups/${group.body.id}`).set(asRoot).send({ path: 'hooked-team' })).status).toBe(200);
    await until(async () => named('user_add_to_team').length === 1);
    // The group's creator joined it as its owner first.
    const groupMember = () => named('user_add_to_group').find((entry) => entry.body.user_id === member.id);
    await until(async () => groupMember() !== undefined);
    await until(async () => named('group_rename').length === 1);
    const [team] = named('user_add_to_team');
    expect(team?.headers['x-gitlab-event']).toBe('System Hook');
    expect(team?.body).toEqual({
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/Z$/),
      event_name: 'user_add_to_team',
      access_level: 'Developer',
      project_id: projectId,
      project_name: 'Hooked',
      project_path: 'hooked',
      project_path_with_namespace: 'root/hooked',
      user_email: 'hooks-member@example.com',
      user_name: 'Hooks Member',
      user_username: 'hooks-member',
      user_id: member.id,
      project_visibility: 'private',
    });
    expect(named('user_add_to_group').map((entry) => entry.body.user_username)).toEqual(['root', 'hooks-member']);
    expect(groupMember()?.body).toEqual({
      created_at: expect.any(String),
      updated_at: expect.any(String),
      event_name: 'user_add_to_group',
      group_access: 'Maintainer',
      group_id: group.body.id,
      group_name: 'Hooked Group',
      group_path: 'hooked-group',
      user_email: 'hooks-member@example.com',
      user_name: 'Hooks Member',
      user_username: 'hooks-member',
      user_id: member.id,
      expires_at: null,
    });
    expect(named('group_rename')[0]?.body).toMatchObject({
      event_name: 'group_rename',
      name: 'Hooked Group',
      path: 'hooked-team',
      full_path: 'hooked-team',
      group_id: group.body.id,
      old_path: 'hooked-group',
      old_full_path: 'hooked-group',
    });
    expect((await gateway.delete(`/api/v4/hooks/${hook.body.id}`).set(asRoot)).status).toBe(204);
  });

  it('keeps system hooks to administrators', async () => {
    expect((await gateway.get('/api/v4/hooks').set(maintainer)).status).toBe(403);
    const created = await gateway
      .post('/api/v4/hooks')
      .set(asRoot)
      .send({ url: `${receiverUrl}/system` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ push_events: false, repository_update_events: true, alert_status: 'executable' });
    const listed = await gateway.get('/api/v4/hooks').set(asRoot);
    expect(listed.body.map((hook: { id: number }) => hook.id)).toEqual([created.body.id]);
    expect((await gateway.delete(`/api/v4/hooks/${created.body.id}`).set(asRoot)).status).toBe(204);
  });
});

describe('group hooks', () => {
  let groupId: number;

  /** Creates a group hook once the hooks service has seen the settings allowing local requests. */
  async function createGroupHook(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    let created: request.Response | undefined;
    await until(async () => {
      created = await gateway.post(`/api/v4/groups/${groupId}/hooks`).set(asRoot).send(body);
      return created.status === 201;
    });
    return created?.body as Record<string, unknown>;
  }

  beforeAll(async () => {
    await setSettings({ allow_local_requests_from_web_hooks_and_services: true });
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Hook Owners', path: 'hook-owners' });
    expect(group.status).toBe(201);
    groupId = group.body.id as number;
  });

  it("sends the group's own member, project and subgroup events to the hooks asking for them", async () => {
    const hook = await createGroupHook({
      url: `${receiverUrl}/group-events`,
      push_events: false,
      member_events: true,
      project_events: true,
      subgroup_events: true,
    });
    expect(hook).toMatchObject({ group_id: groupId, push_events: false, member_events: true, project_events: true, subgroup_events: true });
    const shown = await gateway.get(`/api/v4/groups/${groupId}/hooks/${String(hook.id)}`).set(asRoot);
    expect(shown.body).toMatchObject({ member_events: true, project_events: true, subgroup_events: true });
    await createGroupHook({ url: `${receiverUrl}/group-pushes` });

    const member = await createUserWithToken(gateway, 'group-hooks-member', { name: 'Group Hooks Member' });
    const members = `/api/v4/groups/${groupId}/members`;
    expect((await gateway.post(members).set(asRoot).send({ user_id: member.id, access_level: 30 })).status).toBe(201);
    expect((await gateway.put(`${members}/${member.id}`).set(asRoot).send({ access_level: 40 })).status).toBe(200);
    expect((await gateway.delete(`${members}/${member.id}`).set(asRoot)).status).toBe(204);
    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Grouped', path: 'grouped', namespace_id: groupId });
    expect(project.status).toBe(201);
    // The test platform adjourns no deletion: the project goes at once.
    expect((await gateway.delete(`/api/v4/projects/${project.body.id}`).set(asRoot)).status).toBe(202);
    const subgroup = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Team', path: 'team', parent_id: groupId });
    expect(subgroup.status).toBe(201);
    expect((await gateway.delete(`/api/v4/groups/${subgroup.body.id}`).set(asRoot)).status).toBe(202);

    const named = (eventName: string) =>
      receivedAt('/group-events').filter(
        (entry) => entry.body.event_name === eventName && (entry.body.user_id === undefined || entry.body.user_id === member.id),
      );
    const events = ['user_add_to_group', 'user_update_for_group', 'user_remove_from_group', 'project_create', 'project_destroy'];
    await until(async () => [...events, 'subgroup_create', 'subgroup_destroy'].every((event) => named(event).length === 1));
    expect(named('user_add_to_group')[0]?.headers['x-gitlab-event']).toBe('Member Hook');
    expect(named('user_add_to_group')[0]?.body).toEqual({
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/Z$/),
      group_name: 'Hook Owners',
      group_path: 'hook-owners',
      group_id: groupId,
      user_username: 'group-hooks-member',
      user_name: 'Group Hooks Member',
      user_email: '[REDACTED]',
      user_id: member.id,
      group_access: 'Developer',
      group_plan: null,
      expires_at: null,
      event_name: 'user_add_to_group',
    });
    expect(named('user_update_for_group')[0]?.body).toMatchObject({ group_access: 'Maintainer' });
    expect(named('user_remove_from_group')[0]?.headers['x-gitlab-event']).toBe('Member Hook');
    expect(named('project_create')[0]?.headers['x-gitlab-event']).toBe('Project Hook');
    for (const event of ['project_create', 'project_destroy']) {
      expect(named(event)[0]?.body).toMatchObject({
        event_name: event,
        name: 'Grouped',
        path: 'grouped',
        path_with_namespace: 'hook-owners/grouped',
        project_id: project.body.id,
        project_visibility: 'private',
      });
    }
    expect(named('subgroup_create')[0]?.headers['x-gitlab-event']).toBe('Subgroup Hook');
    const subgroupFields = {
      name: 'Team',
      path: 'team',
      full_path: 'hook-owners/team',
      group_id: subgroup.body.id,
      parent_group_id: groupId,
      parent_name: 'Hook Owners',
      parent_path: 'hook-owners',
      parent_full_path: 'hook-owners',
    };
    expect(named('subgroup_create')[0]?.body).toEqual({
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/Z$/),
      event_name: 'subgroup_create',
      ...subgroupFields,
    });
    expect(named('subgroup_destroy')[0]?.body).toMatchObject({ event_name: 'subgroup_destroy', ...subgroupFields });
    // A hook that did not ask for them (only pushes, its default) gets none.
    expect(receivedAt('/group-pushes')).toEqual([]);
  });

  it("tests a group hook with the group's first project that has commits, answering as GitLab does without one", async () => {
    const hook = await createGroupHook({ url: `${receiverUrl}/group-tests` });
    const test = (trigger: string) => gateway.post(`/api/v4/groups/${groupId}/hooks/${String(hook.id)}/test/${trigger}`).set(asRoot);
    const withoutProject = await test('push_events');
    expect(withoutProject.status).toBe(422);
    expect(withoutProject.body).toEqual({ message: 'Ensure the group has a project with commits.' });
    const groupOnly = await test('member_events');
    expect(groupOnly.status).toBe(400);
    expect(groupOnly.body).toEqual({ error: 'trigger does not have a valid value' });

    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Tested', path: 'tested', namespace_id: groupId });
    expect(project.status).toBe(201);
    expect((await git(['push', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'hook-owners/tested'), 'HEAD:refs/heads/main'])).code).toBe(0);
    await until(async () => (await test('push_events')).status === 201);
    expect(receivedAt('/group-tests')[0]?.headers['x-gitlab-event']).toBe('Push Hook');
    expect(receivedAt('/group-tests')[0]?.body).toMatchObject({ object_kind: 'push', project: { id: project.body.id } });

    const noPipeline = await test('pipeline_events');
    expect(noPipeline.status).toBe(422);
    expect(noPipeline.body).toEqual({ message: 'Ensure the project has CI pipelines.' });
    const sha = (await git(['rev-parse', 'HEAD'])).output.trim();
    const status = await gateway
      .post(`/api/v4/projects/${project.body.id}/statuses/${sha}`)
      .set(asRoot)
      .send({ state: 'success', ref: 'main', name: 'external-ci' });
    expect(status.status).toBe(201);
    await until(async () => (await test('pipeline_events')).status === 201);
    const pipeline = receivedAt('/group-tests').find((entry) => entry.body.object_kind === 'pipeline');
    expect(pipeline?.headers['x-gitlab-event']).toBe('Pipeline Hook');
    expect(pipeline?.body).toMatchObject({
      object_attributes: { id: status.body.pipeline_id, sha, ref: 'main', status: 'success', detailed_status: 'passed' },
      user: { username: 'root' },
      project: { id: project.body.id, path_with_namespace: 'hook-owners/tested' },
      commit: { id: sha, url: `${platform.url}/hook-owners/tested/-/commit/${sha}` },
    });

    const noIssue = await test('issues_events');
    expect(noIssue.status).toBe(422);
    expect(noIssue.body).toEqual({ message: 'Ensure the project has issues.' });
    const issue = await gateway.post(`/api/v4/projects/${project.body.id}/issues`).set(asRoot).send({ title: 'Tested issue' });
    expect(issue.status).toBe(201);
    await until(async () => (await test('issues_events')).status === 201);
    const sent = receivedAt('/group-tests').find((entry) => entry.body.object_kind === 'issue');
    expect(sent?.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(sent?.body).toMatchObject({
      event_type: 'issue',
      user: { username: 'root' },
      object_attributes: { id: issue.body.id, title: 'Tested issue', action: 'open' },
    });
    expect((await test('deployment_events')).body).toEqual({ message: 'Ensure the project has deployments.' });
    expect((await test('feature_flag_events')).body).toEqual({ message: 'Testing not available for this hook' });
  });
});
