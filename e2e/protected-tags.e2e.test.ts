/**
 * Protected tags through the real gateway and the git CLI: pushes of tags a protected tag names are
 * refused with GitLab's messages (create, move, delete), and the tags API shows which are protected.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
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
let git: Git;
let developer: E2eUser;
let maintainer: E2eUser;
let projectId: number;
let clone: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
const projectPath = 'root/tagged';
const asDeveloper = () => gitRemote(platform.url, developer.token, projectPath);
const asMaintainer = () => gitRemote(platform.url, maintainer.token, projectPath);
const tag = async (name: string) => gateway.get(`/api/v4/projects/${projectId}/repository/tags/${encodeURIComponent(name)}`).set(asRoot);

beforeAll(async () => {
  work = createWorkDir('protected-tags');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
  developer = await createUserWithToken(gateway, 'tags-dev');
  maintainer = await createUserWithToken(gateway, 'tags-maintainer');
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'tagged', path: 'tagged', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  await addProjectMember(gateway, { projectId, userId: developer.id, accessLevel: 30 });
  await addProjectMember(gateway, { projectId, userId: maintainer.id, accessLevel: 40 });
  expect((await git(['clone', '-q', asDeveloper(), 'tagged'])).code).toBe(0);
  clone = path.join(work, 'tagged');
  writeFileSync(path.join(clone, 'a.txt'), 'a\n');
  expect((await git(['add', 'a.txt'], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', 'First'], clone)).code).toBe(0);
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
  const protectedTag = await gateway.post(`/api/v4/projects/${projectId}/protected_tags`).set(maintainer.headers).send({ name: 'v*' });
  expect(protectedTag.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('pushing protected tags', () => {
  it("refuses a developer's new protected tag with GitLab's message, and takes a maintainer's", async () => {
    expect((await git(['tag', 'v1'], clone)).code).toBe(0);
    const refused = await git(['push', asDeveloper(), 'refs/tags/v1'], clone);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('GitLab: You are not allowed to create this tag as it is protected.');
    expect((await tag('v1')).status).toBe(404);
    expect((await git(['push', '-q', asDeveloper(), 'HEAD:refs/tags/plain'], clone)).code).toBe(0);

    expect((await git(['push', '-q', asMaintainer(), 'refs/tags/v1'], clone)).code).toBe(0);
    expect((await tag('v1')).body.protected).toBe(true);
    expect((await tag('plain')).body.protected).toBe(false);
  });

  it('never moves a protected tag, and deletes one only through the API', async () => {
    writeFileSync(path.join(clone, 'b.txt'), 'b\n');
    expect((await git(['add', 'b.txt'], clone)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'Second'], clone)).code).toBe(0);
    expect((await git(['tag', '-f', 'v1'], clone)).code).toBe(0);
    const moved = await git(['push', '-f', asMaintainer(), 'refs/tags/v1'], clone);
    expect(moved.code).not.toBe(0);
    expect(moved.output).toContain('GitLab: Protected tags cannot be updated.');

    const byDeveloper = await git(['push', asDeveloper(), ':refs/tags/v1'], clone);
    expect(byDeveloper.output).toContain(
      'GitLab: You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
    );
    const byMaintainer = await git(['push', asMaintainer(), ':refs/tags/v1'], clone);
    expect(byMaintainer.output).toContain('GitLab: You can only delete protected tags using the web interface.');
    expect((await tag('v1')).status).toBe(200);

    const deleted = await gateway.delete(`/api/v4/projects/${projectId}/repository/tags/v1`).set(maintainer.headers);
    expect(deleted.status).toBe(204);
    expect((await tag('v1')).status).toBe(404);
  });
});
