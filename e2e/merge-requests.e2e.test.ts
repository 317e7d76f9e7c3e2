/**
 * Protected branches and merge requests through the real gateway, on repositories the git CLI
 * pushes to over HTTP: one platform for the whole file.
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

interface TestUser {
  id: number;
  username: string;
  token: string;
  headers: { 'PRIVATE-TOKEN': string };
}

async function createUser(username: string): Promise<TestUser> {
  const user = await gateway
    .post('/api/v4/users')
    .set(asRoot)
    .send({ email: `${username}@example.com`, name: username, username, password: 'a-long-enough-password' });
  expect(user.status).toBe(201);
  const token = await gateway
    .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
    .set(asRoot)
    .send({ name: 'all', scopes: ['api'] });
  expect(token.status).toBe(201);
  return { id: user.body.id, username, token: token.body.token, headers: { 'PRIVATE-TOKEN': token.body.token } };
}

async function createProject(name: string, members: Array<[TestUser, number]>): Promise<number> {
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name, path: name, visibility: 'private' });
  expect(project.status).toBe(201);
  for (const [user, level] of members) {
    const member = await gateway
      .post(`/api/v4/projects/${project.body.id}/members`)
      .set(asRoot)
      .send({ user_id: user.id, access_level: level });
    expect(member.status).toBe(201);
  }
  return project.body.id;
}

/** Writes `content` to `file` in the clone and commits it; answers the new head. */
async function commit(clone: string, file: string, content: string, message: string): Promise<string> {
  writeFileSync(path.join(clone, file), content);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
  return (await git(['rev-parse', 'HEAD'], clone)).output.trim();
}

let developer: TestUser;
let maintainer: TestUser;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'e2e-mr-'));
  // A missing git is a failure that says how to install it, not a skip.
  await git(['--version']);
  platform = await startTestPlatform();
  gateway = request(platform.url);
  developer = await createUser('mr-dev');
  maintainer = await createUser('mr-maintainer');
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('protected branches', () => {
  const projectPath = 'root/guarded';
  let projectId: number;
  let clone: string;
  const asDeveloper = () => gitRemote(platform.url, developer.token, projectPath);
  const asMaintainer = () => gitRemote(platform.url, maintainer.token, projectPath);
  const head = async (branch: string) =>
    (await gateway.get(`/api/v4/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`).set(asRoot)).body.commit?.id;

  beforeAll(async () => {
    projectId = await createProject('guarded', [
      [developer, 30],
      [maintainer, 40],
    ]);
    expect((await git(['clone', '-q', asDeveloper(), 'guarded'])).code).toBe(0);
    clone = path.join(work, 'guarded');
  });

  it('lets a developer push the first branch, which becomes the default branch, protected for maintainers', async () => {
    await commit(clone, 'README.md', 'hello\n', 'Initial commit');
    expect(await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).toMatchObject({ code: 0 });

    const list = await gateway.get(`/api/v4/projects/${projectId}/protected_branches`).set(asRoot);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        name: 'main',
        push_access_levels: [expect.objectContaining({ access_level: 40, access_level_description: 'Maintainers' })],
        merge_access_levels: [expect.objectContaining({ access_level: 40, access_level_description: 'Maintainers' })],
        unprotect_access_levels: [expect.objectContaining({ access_level: 40 })],
        allow_force_push: false,
      }),
    ]);
    const branch = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/main`).set(developer.headers);
    expect(gitlabSchemaErrors('branch.json', branch.body)).toEqual([]);
    expect(branch.body).toMatchObject({
      protected: true,
      default: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
    });
    const asMaintainerView = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/main`).set(maintainer.headers);
    expect(asMaintainerView.body.can_push).toBe(true);
  });

  it("refuses a developer's push to the protected branch with GitLab's message, and the branch stays", async () => {
    const before = await head('main');
    await commit(clone, 'a.txt', 'a\n', 'Developer change');
    const push = await git(['push', 'origin', 'HEAD:refs/heads/main'], clone);
    expect(push.code).not.toBe(0);
    expect(push.output).toContain('GitLab: You are not allowed to push code to protected branches on this project.');
    expect(push.output).toContain('pre-receive hook declined');
    expect(await head('main')).toBe(before);

    expect(await git(['push', '-q', asMaintainer(), 'HEAD:refs/heads/main'], clone)).toMatchObject({ code: 0 });
    expect(await head('main')).toBe((await git(['rev-parse', 'HEAD'], clone)).output.trim());
  });

  it('refuses force pushes unless the protection allows them', async () => {
    expect((await git(['commit', '-q', '--amend', '-m', 'Rewritten'], clone)).code).toBe(0);
    const forced = await git(['push', '-f', asMaintainer(), 'HEAD:refs/heads/main'], clone);
    expect(forced.code).not.toBe(0);
    expect(forced.output).toContain('GitLab: You are not allowed to force push code to a protected branch on this project.');

    const allowed = await gateway
      .patch(`/api/v4/projects/${projectId}/protected_branches/main`)
      .set(asRoot)
      .send({ allow_force_push: true });
    expect(allowed.status).toBe(200);
    expect(allowed.body.allow_force_push).toBe(true);
    expect(await git(['push', '-q', '-f', asMaintainer(), 'HEAD:refs/heads/main'], clone)).toMatchObject({ code: 0 });
    expect((await gateway.get(`/api/v4/projects/${projectId}/repository/commits/main`).set(asRoot)).body.title).toBe('Rewritten');
  });

  it('protects wildcard names: developers push where allowed, nobody deletes over git, the default branch stays', async () => {
    const created = await gateway
      .post(`/api/v4/projects/${projectId}/protected_branches`)
      .set(maintainer.headers)
      .send({ name: 'release/*', push_access_level: 30, merge_access_level: 30 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
      allow_force_push: false,
    });
    expect(await git(['push', '-q', 'origin', 'HEAD:refs/heads/release/1.0'], clone)).toMatchObject({ code: 0 });
    const developerView = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/release%2F1.0`).set(developer.headers);
    expect(developerView.body).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true, can_push: true });

    const byDeveloper = await git(['push', 'origin', ':refs/heads/release/1.0'], clone);
    expect(byDeveloper.output).toContain(
      'GitLab: You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
    );
    const byMaintainer = await git(['push', asMaintainer(), ':refs/heads/release/1.0'], clone);
    expect(byMaintainer.output).toContain('GitLab: You can only delete protected branches using the web interface.');
    const defaultBranch = await git(['push', asMaintainer(), ':refs/heads/main'], clone);
    expect(defaultBranch.output).toContain('GitLab: The default branch of a project cannot be deleted.');
    expect(await head('release/1.0')).toBeDefined();
    expect(await head('main')).toBeDefined();

    const unprotected = await gateway.delete(`/api/v4/projects/${projectId}/protected_branches/release%2F*`).set(maintainer.headers);
    expect(unprotected.status).toBe(204);
    expect(await git(['push', '-q', 'origin', ':refs/heads/release/1.0'], clone)).toMatchObject({ code: 0 });
    expect((await gateway.get(`/api/v4/projects/${projectId}/repository/branches/release%2F1.0`).set(asRoot)).status).toBe(404);
  });

  it('answers bad requests, conflicts, unknown names and too little access as GitLab', async () => {
    const base = `/api/v4/projects/${projectId}/protected_branches`;
    const duplicate = await gateway.post(base).set(asRoot).send({ name: 'main' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: "Protected branch 'main' already exists" });
    const missing = await gateway.post(base).set(asRoot).send({ push_access_level: 30 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const badLevel = await gateway.post(base).set(asRoot).send({ name: 'x', push_access_level: 35 });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ error: 'push_access_level does not have a valid value' });
    expect((await gateway.get(`${base}/nope`).set(asRoot)).status).toBe(404);
    expect((await gateway.delete(`${base}/nope`).set(asRoot)).status).toBe(404);
    expect((await gateway.get(base).set(developer.headers)).status).toBe(403);
    expect((await gateway.post(base).set(developer.headers).send({ name: 'y' })).status).toBe(403);
    expect((await gateway.get(base)).status).toBe(401);
    const single = await gateway.get(`${base}/main`).set(asRoot);
    expect(single.body).toMatchObject({ name: 'main', allow_force_push: true, code_owner_approval_required: false });
  });
});
