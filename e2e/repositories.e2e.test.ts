/**
 * Project repositories through the real gateway: the git CLI clones and pushes over HTTP with
 * personal access tokens, the API lists branches and reads commits, and refusals reach git's user.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { databaseUrlFor, type RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, testEnvironment, waitFor } from '@platform/testing';
import {
  addProjectMember,
  createPersonalAccessToken,
  createUserWithToken,
  createWorkDir,
  E2E_ROOT_TOKEN,
  removeWorkDir,
  startTestPlatform,
} from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let review: pg.Client;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

/** The git CLI as a user would run it, in the test's working directory unless told. */
let git: Git;

function remote(token: string | undefined, projectPath: string): string {
  return gitRemote(platform.url, token, projectPath);
}

/** A user with a personal access token of each of `scopes`' scope lists, in order. */
async function createUser(username: string, [firstScopes, ...otherScopes]: [string[], ...string[][]]) {
  const user = await createUserWithToken(gateway, username, { scopes: firstScopes });
  const tokens = [user.token];
  for (const scopes of otherScopes) tokens.push(await createPersonalAccessToken(gateway, { userId: user.id, scopes }));
  return { id: user.id, tokens };
}

async function commit(clone: string, file: string, message: string) {
  writeFileSync(path.join(clone, file), `${message}\n`);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
}

beforeAll(async () => {
  work = createWorkDir('git');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
  review = new pg.Client({ connectionString: databaseUrlFor(testEnvironment().postgresUrl, `${platform.databasePrefix}review`) });
  await review.connect();
}, 180_000);

afterAll(async () => {
  await review?.end();
  await platform?.stop();
  removeWorkDir(work);
});

describe('project repositories over HTTP', () => {
  let projectId: number;
  const projectPath = 'root/shop';
  let developer: { id: number; tokens: string[] };
  let reporter: { id: number; tokens: string[] };

  it('creates the repository when identity announces the project', async () => {
    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Shop', path: 'shop', visibility: 'private' });
    expect(project.status).toBe(201);
    projectId = project.body.id as number;
    const row = await waitFor(async () => {
      const { rows } = await review.query<{ disk_path: string }>('select disk_path from repositories where project_id = $1', [projectId]);
      return rows[0];
    });
    expect(row.disk_path).toMatch(/^@hashed\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.git$/);

    developer = await createUser('git-dev', [['api'], ['read_repository']]);
    reporter = await createUser('git-reporter', [['api']]);
    await addProjectMember(gateway, { projectId, userId: developer.id, accessLevel: 30 });
    await addProjectMember(gateway, { projectId, userId: reporter.id, accessLevel: 20 });
  });

  it('challenges an anonymous clone of a private project with HTTP Basic', async () => {
    const refs = await gateway.get(`/${projectPath}.git/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(401);
    expect(refs.headers['www-authenticate']).toBe('Basic realm="GitLab"');
    const clone = await git(['clone', remote(undefined, projectPath), 'anonymous']);
    expect(clone.code).not.toBe(0);
    const wrong = await gateway.get(`/${projectPath}.git/info/refs?service=git-upload-pack`).auth('oauth2', 'glpat-wrong-token-000000');
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="GitLab"');
  });

  it('clones the empty repository, pushes the first branch, which becomes the default branch', async () => {
    const clone = await git(['clone', remote(developer.tokens[0], projectPath), 'dev']);
    expect(clone).toMatchObject({ code: 0 });
    const dev = path.join(work, 'dev');
    await commit(dev, 'README.md', 'Add a README');
    await commit(dev, 'app.txt', 'Start the app\n\nWith a body.');
    const push = await git(['push', 'origin', 'HEAD:refs/heads/trunk'], dev);
    expect(push).toMatchObject({ code: 0 });

    const branches = await gateway.get(`/api/v4/projects/${projectId}/repository/branches`).set(asRoot);
    expect(branches.status).toBe(200);
    expect(gitlabSchemaErrors('branches.json', branches.body)).toEqual([]);
    expect(branches.body).toEqual([
      expect.objectContaining({
        name: 'trunk',
        default: true,
        merged: false,
        can_push: true,
        commit: expect.objectContaining({ title: 'Start the app' }),
      }),
    ]);
    const project = await waitFor(async () => {
      const found = await gateway.get(`/api/v4/projects/${projectId}`).set(asRoot);
      return found.body.default_branch === 'trunk' ? found.body : undefined;
    });
    expect(project.default_branch).toBe('trunk');

    const [event] = (
      await review.query<{ envelope: { type: string; actor: { username: string }; data: Record<string, unknown> } }>(
        "select envelope from outbox where envelope->>'type' = 'review.repository.pushed' order by id",
      )
    ).rows.map((row) => row.envelope);
    expect(event?.actor.username).toBe('git-dev');
    expect(event?.data).toMatchObject({
      projectId,
      ref: 'refs/heads/trunk',
      before: '0'.repeat(40),
      commitCount: 2,
      commitTitles: ['Start the app', 'Add a README'],
    });
  });

  it('reads a commit and its stats through the API, by sha or branch, with the path as :id', async () => {
    const byBranch = await gateway.get(`/api/v4/projects/${encodeURIComponent(projectPath)}/repository/commits/trunk`).set(asRoot);
    expect(byBranch.status).toBe(200);
    expect(gitlabSchemaErrors('commit/detail.json', byBranch.body)).toEqual([]);
    expect(byBranch.body).toMatchObject({
      title: 'Start the app',
      message: 'Start the app\n\nWith a body.\n',
      author_name: 'Dev',
      stats: { additions: 3, deletions: 0, total: 3 },
      project_id: projectId,
    });
    const bySha = await gateway.get(`/api/v4/projects/${projectId}/repository/commits/${byBranch.body.parent_ids[0]}`).set(asRoot);
    expect(bySha.body.title).toBe('Add a README');
    const missing = await gateway.get(`/api/v4/projects/${projectId}/repository/commits/${'f'.repeat(40)}`).set(asRoot);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Commit Not Found' });
  });

  it('creates, finds, searches and pages branches', async () => {
    const created = await gateway
      .post(`/api/v4/projects/${projectId}/repository/branches`)
      .set(asRoot)
      .send({ branch: 'feature/pay', ref: 'trunk' });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('branch.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({ name: 'feature/pay', default: false, merged: false });
    expect(created.body.web_url).toMatch(/\/root\/shop\/-\/tree\/feature\/pay$/);

    const unknownRef = await gateway
      .post(`/api/v4/projects/${projectId}/repository/branches`)
      .set(asRoot)
      .send({ branch: 'x', ref: 'nope' });
    expect(unknownRef.status).toBe(400);
    expect(unknownRef.body).toEqual({ message: "Failed to create branch 'x': invalid reference name 'nope'" });
    const again = await gateway
      .post(`/api/v4/projects/${projectId}/repository/branches`)
      .set(asRoot)
      .send({ branch: 'feature/pay', ref: 'trunk' });
    expect(again.body).toEqual({ message: 'Branch already exists' });
    const missing = await gateway.post(`/api/v4/projects/${projectId}/repository/branches`).set(asRoot).send({ ref: 'trunk' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'branch is missing' });

    const one = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/feature%2Fpay`).set(asRoot);
    expect(one.body.name).toBe('feature/pay');
    const absent = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/nope`).set(asRoot);
    expect(absent.status).toBe(404);
    expect(absent.body).toEqual({ message: '404 Branch Not Found' });

    const searched = await gateway.get(`/api/v4/projects/${projectId}/repository/branches?search=^FEAT`).set(asRoot);
    expect(searched.body.map((branch: { name: string }) => branch.name)).toEqual(['feature/pay']);
    const paged = await gateway.get(`/api/v4/projects/${projectId}/repository/branches?per_page=1&page=2`).set(asRoot);
    expect(paged.body.map((branch: { name: string }) => branch.name)).toEqual(['trunk']);
    expect(paged.headers['x-total']).toBe('2');
  });

  it('lets a reporter clone but not push, and refuses a push with a read_repository token', async () => {
    const clone = await git(['clone', remote(reporter.tokens[0], projectPath), 'reporter']);
    expect(clone.code).toBe(0);
    const reporterClone = path.join(work, 'reporter');
    expect(existsSync(path.join(reporterClone, 'app.txt'))).toBe(true);
    await commit(reporterClone, 'notes.txt', 'Reporter note');
    const push = await git(['push', 'origin', 'HEAD:refs/heads/trunk'], reporterClone);
    expect(push.code).not.toBe(0);
    expect(push.output).toContain('You are not allowed to push code to this project.');

    const readOnlyToken = await git(['clone', remote(developer.tokens[1], projectPath), 'read-token']);
    expect(readOnlyToken.code).toBe(0);
    const readTokenClone = path.join(work, 'read-token');
    await commit(readTokenClone, 'more.txt', 'More');
    const refused = await git(['push', 'origin', 'HEAD:refs/heads/trunk'], readTokenClone);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('You are not allowed to upload code.');

    // A git token is no API token.
    const scopeRefused = await gateway
      .get(`/api/v4/projects/${projectId}/repository/branches`)
      .set('PRIVATE-TOKEN', developer.tokens[1] ?? '');
    expect(scopeRefused.status).toBe(403);
    expect(scopeRefused.body).toMatchObject({ error: 'insufficient_scope' });
  });

  it('refuses pushes while the repository is read-only, and the push changes nothing', async () => {
    await review.query('update repositories set read_only = true where project_id = $1', [projectId]);
    const dev = path.join(work, 'dev');
    await commit(dev, 'late.txt', 'Too late');
    // The default branch is protected since the first push: the developer pushes a branch of their own.
    const push = await git(['push', 'origin', 'HEAD:refs/heads/late'], dev);
    expect(push.code).not.toBe(0);
    expect(push.output).toContain('The repository is temporarily read-only. Please try again later.');
    const absent = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/late`).set(asRoot);
    expect(absent.status).toBe(404);

    await review.query('update repositories set read_only = false where project_id = $1', [projectId]);
    expect((await git(['push', 'origin', 'HEAD:refs/heads/late'], dev)).code).toBe(0);
    const moved = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/late`).set(asRoot);
    expect(moved.body.commit.title).toBe('Too late');
    const fetched = await git(['fetch', 'origin'], path.join(work, 'reporter'));
    expect(fetched.code).toBe(0);
  });

  it('creates a repository on first use when its project event has not been applied, and removes it with the project', async () => {
    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Fast', path: 'fast', visibility: 'public' });
    // No waiting for the event: the clone itself creates the repository if it comes first.
    const clone = await git(['clone', remote(undefined, 'root/fast'), 'fast']);
    expect(clone.code).toBe(0);
    await gateway.delete(`/api/v4/projects/${project.body.id}`).set(asRoot);
    await waitFor(async () => {
      const { rows } = await review.query('select 1 from repositories where project_id = $1', [project.body.id]);
      return rows.length === 0 ? true : undefined;
    });
  });
});

describe('repositories after a transfer', () => {
  it('are cloned by the new path once the group and then the project moved; the old paths are not found', async () => {
    const mover = await createUser('git-mover', [['api', 'write_repository']]);
    const token = mover.tokens[0]!;
    const as = { 'PRIVATE-TOKEN': token };
    const top = await gateway.post('/api/v4/groups').set(as).send({ name: 'Old home', path: 'old-home', visibility: 'private' });
    const team = await gateway.post('/api/v4/groups').set(as).send({ name: 'Team', path: 'team', parent_id: top.body.id });
    const destination = await gateway.post('/api/v4/groups').set(as).send({ name: 'New home', path: 'new-home', visibility: 'private' });
    const project = await gateway.post('/api/v4/projects').set(as).send({ name: 'Tool', path: 'tool', namespace_id: team.body.id });
    expect(project.status).toBe(201);
    expect((await git(['clone', remote(token, 'old-home/team/tool'), 'tool'])).code).toBe(0);
    const tool = path.join(work, 'tool');
    await commit(tool, 'tool.txt', 'The tool');
    expect((await git(['push', 'origin', 'HEAD:refs/heads/main'], tool)).code).toBe(0);

    const movedGroup = await gateway.post(`/api/v4/groups/${team.body.id}/transfer`).set(as).send({ group_id: destination.body.id });
    expect(movedGroup.body.full_path).toBe('new-home/team');
    const grouped = await git(['clone', remote(token, 'new-home/team/tool'), 'tool-grouped']);
    expect(grouped.code).toBe(0);
    expect(existsSync(path.join(work, 'tool-grouped', 'tool.txt'))).toBe(true);
    const stale = await git(['clone', remote(token, 'old-home/team/tool'), 'tool-stale']);
    expect(stale.code).not.toBe(0);
    expect(stale.output).toContain("The project you were looking for could not be found or you don't have permission to view it.");

    const movedProject = await gateway.put(`/api/v4/projects/${project.body.id}/transfer`).set(as).send({ namespace: 'git-mover' });
    expect(movedProject.body.path_with_namespace).toBe('git-mover/tool');
    expect((await git(['fetch', remote(token, 'git-mover/tool'), 'main'], tool)).code).toBe(0);
    expect((await git(['ls-remote', remote(token, 'new-home/team/tool')])).code).not.toBe(0);
  });
});
