/**
 * The repository API's writes through the real gateway are pushes in every respect but the
 * protocol: the merge request of a branch written through the API gets a diff version per write,
 * the writes appear as push activity in audit, a git push is read back through the API, and the
 * API's writes are read back by git fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
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

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
let work: string;
let git: Git;
let developer: E2eUser;
let projectId: number;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  work = createWorkDir('repository-writes');
  git = await gitCli(work);
  // admin: review bounds diffs by its `diff_max_patch_bytes`.
  platform = await startTestPlatform({ services: ['identity', 'review', 'audit', 'admin'] });
  gateway = request(platform.url);
  developer = await createUserWithToken(gateway, 'writes-dev');
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'writes', path: 'writes', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  await addProjectMember(gateway, { projectId, userId: developer.id, accessLevel: 30 });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('API writes through the gateway', () => {
  it('records a merge request diff version for each API commit to its source branch, and push activity for the writer', async () => {
    const files = `/api/v4/projects/${projectId}/repository/files`;
    expect(
      (
        await gateway
          .post(`${files}/README.md`)
          .set(developer.headers)
          .send({ branch: 'main', content: '# Writes\n', commit_message: 'Start' })
      ).status,
    ).toBe(201);
    expect(
      (
        await gateway
          .post(`${files}/a.txt`)
          .set(developer.headers)
          .send({ branch: 'topic', start_branch: 'main', content: 'a\n', commit_message: 'Add a' })
      ).status,
    ).toBe(201);
    const opened = await gateway
      .post(`/api/v4/projects/${projectId}/merge_requests`)
      .set(developer.headers)
      .send({ source_branch: 'topic', target_branch: 'main', title: 'Topic' });
    expect(opened.status).toBe(201);
    const commit = await gateway
      .post(`/api/v4/projects/${projectId}/repository/commits`)
      .set(developer.headers)
      .send({ branch: 'topic', commit_message: 'Add b', actions: [{ action: 'create', file_path: 'b.txt', content: 'b\n' }] });
    expect(commit.status).toBe(201);

    const versions = await waitFor(
      async () => {
        const response = await gateway
          .get(`/api/v4/projects/${projectId}/merge_requests/${opened.body.iid}/versions`)
          .set(developer.headers);
        return response.body.length === 2 ? response.body : undefined;
      },
      { what: 'the diff version of the API commit' },
    );
    expect(versions[0]).toMatchObject({ head_commit_sha: commit.body.id });
    const changed = await gateway.get(`/api/v4/projects/${projectId}/merge_requests/${opened.body.iid}`).set(developer.headers);
    expect(changed.body).toMatchObject({ sha: commit.body.id });

    const pushes = await waitFor(
      async () => {
        const response = await gateway.get(`/api/v4/projects/${projectId}/events`).query({ action: 'pushed' }).set(developer.headers);
        const titles = (response.body as Array<{ author_username: string; push_data?: { commit_title: string | null } }>).map((event) => [
          event.author_username,
          event.push_data?.commit_title,
        ]);
        return titles.some(([, title]) => title === 'Add b') ? titles : undefined;
      },
      { what: 'the API commit among the push events' },
    );
    expect(pushes).toEqual(
      expect.arrayContaining([
        ['writes-dev', 'Start'],
        ['writes-dev', 'Add a'],
        ['writes-dev', 'Add b'],
      ]),
    );
  });

  it('reads back through the API what git pushed, and through git what the API wrote', async () => {
    expect((await git(['clone', '-q', gitRemote(platform.url, developer.token, 'root/writes'), 'writes'])).code).toBe(0);
    const clone = path.join(work, 'writes');
    expect((await git(['checkout', '-q', 'topic'], clone)).code).toBe(0);
    expect(readFileSync(path.join(clone, 'b.txt'), 'utf8')).toBe('b\n');
    writeFileSync(path.join(clone, 'c.txt'), 'pushed\n');
    expect((await git(['add', 'c.txt'], clone)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'Push c'], clone)).code).toBe(0);
    expect((await git(['push', '-q', 'origin', 'topic'], clone)).code).toBe(0);

    const pushed = await gateway.get(`/api/v4/projects/${projectId}/repository/files/c.txt/raw?ref=topic`).set(developer.headers);
    expect(pushed.text).toBe('pushed\n');
    const updated = await gateway
      .put(`/api/v4/projects/${projectId}/repository/files/c.txt`)
      .set(developer.headers)
      .send({ branch: 'topic', content: 'rewritten\n', commit_message: 'Rewrite c' });
    expect(updated.status).toBe(200);
    expect((await git(['pull', '-q', '--ff-only'], clone)).code).toBe(0);
    expect(readFileSync(path.join(clone, 'c.txt'), 'utf8')).toBe('rewritten\n');
    expect((await git(['log', '-1', '--format=%an %s'], clone)).output.trim()).toBe('writes-dev Rewrite c');
  });
});

describe('diff_max_patch_bytes', () => {
  it('collapses a file whose patch is larger than the setting (too_large, no text) once an administrator lowered it', async () => {
    // About 150 KB of patch: shown under GitLab's default of 204,800 bytes, too large under its least, 102,400.
    const content = Array.from({ length: 3000 }, (_, line) => `line ${line} ${'x'.repeat(40)}`).join('\n');
    const created = await gateway
      .post(`/api/v4/projects/${projectId}/repository/commits`)
      .set(developer.headers)
      .send({
        branch: 'large',
        start_branch: 'main',
        commit_message: 'Add a large file',
        actions: [{ action: 'create', file_path: 'large.txt', content }],
      });
    expect(created.status).toBe(201);
    const diffOf = async () =>
      (await gateway.get(`/api/v4/projects/${projectId}/repository/commits/${created.body.id}/diff`).set(developer.headers)).body;
    const shown = await diffOf();
    expect(shown).toEqual([expect.objectContaining({ new_path: 'large.txt', too_large: false, collapsed: false })]);
    expect(shown[0].diff.length).toBeGreaterThan(102_400);
    try {
      expect((await gateway.put('/api/v4/application/settings').set(asRoot).send({ diff_max_patch_bytes: 102_400 })).status).toBe(200);
      // Settings reach review within seconds.
      const collapsed = await waitFor(async () => {
        const diff = await diffOf();
        return diff[0]?.too_large ? diff : undefined;
      });
      expect(collapsed).toEqual([expect.objectContaining({ new_path: 'large.txt', diff: '', too_large: true, collapsed: true })]);
    } finally {
      await gateway.put('/api/v4/application/settings').set(asRoot).send({ diff_max_patch_bytes: 204_800 });
    }
  });
});
