/**
 * Groups, projects, members and access requests through the real gateway, driven by
 * @gitbeaker/rest as a platform team's tooling would drive them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Gitlab } from '@gitbeaker/rest';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
let root: InstanceType<typeof Gitlab>;

async function userWithClient(username: string) {
  const user = await root.Users.create({ email: `${username}@example.com`, name: username, username, password: 'a-long-enough-password' });
  const token = await request(platform.url)
    .post(`/api/v4/users/${user.id}/personal_access_tokens`)
    .set('PRIVATE-TOKEN', E2E_ROOT_TOKEN)
    .send({ name: 'gitbeaker', scopes: ['api'] });
  return { id: user.id, client: new Gitlab({ host: platform.url, token: token.body.token as string }) };
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['identity'] });
  root = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe('groups and projects with @gitbeaker/rest', () => {
  it('creates a group, a subgroup and a project, and finds them by URL-encoded path', async () => {
    const group = await root.Groups.create('Acme', 'acme', { visibility: 'private' });
    const subgroup = await root.Groups.create('Platform', 'platform', { parentId: group.id, visibility: 'private' });
    const project = await root.Projects.create({ name: 'Gateway', path: 'gateway', namespaceId: subgroup.id, visibility: 'private' });
    expect(project.path_with_namespace).toBe('acme/platform/gateway');
    expect((await root.Projects.show('acme/platform/gateway')).id).toBe(project.id);
    expect((await root.Groups.show('acme/platform')).full_path).toBe('acme/platform');
    const subgroups = await root.Groups.allSubgroups(group.id);
    expect(subgroups.map((candidate) => candidate.full_path)).toEqual(['acme/platform']);
    const projects = await root.Groups.allProjects(group.id, { includeSubgroups: true });
    expect(projects.map((candidate) => candidate.path_with_namespace)).toEqual(['acme/platform/gateway']);
  });

  it('hides a private group from a stranger (404) until they are a member, and pages with all*', async () => {
    const stranger = await userWithClient('e2e-stranger');
    await expect(stranger.client.Groups.show('acme')).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    await root.GroupMembers.add('acme', 30, { userId: stranger.id });
    const seen = await stranger.client.Groups.show('acme/platform');
    expect(seen.full_path).toBe('acme/platform');
    const members = await root.GroupMembers.all('acme/platform', { includeInherited: true });
    expect(members.map((member) => [member.username, member.access_level])).toContainEqual(['e2e-stranger', 30]);
    for (let index = 0; index < 5; index += 1) await root.Groups.create(`Team ${index}`, `team-${index}`, { visibility: 'public' });
    const all = await stranger.client.Groups.all({ perPage: 2, allAvailable: true });
    expect(all.map((candidate) => candidate.full_path)).toEqual(expect.arrayContaining(['acme', 'acme/platform', 'team-0', 'team-4']));
  });

  it('turns an access request into a membership', async () => {
    const group = await root.Groups.create('Open', 'open-door', { visibility: 'internal', requestAccessEnabled: true });
    const requester = await userWithClient('e2e-requester');
    const requested = await requester.client.GroupAccessRequests.request(group.id);
    expect(requested.username).toBe('e2e-requester');
    expect((await root.GroupAccessRequests.all(group.id)).map((pending) => pending.username)).toEqual(['e2e-requester']);
    const approved = await root.GroupAccessRequests.approve(group.id, requester.id, { accessLevel: 20 });
    expect(approved.access_level).toBe(20);
    expect((await root.GroupMembers.show(group.id, requester.id)).access_level).toBe(20);
    expect(await root.GroupAccessRequests.all(group.id)).toEqual([]);
  });
});
