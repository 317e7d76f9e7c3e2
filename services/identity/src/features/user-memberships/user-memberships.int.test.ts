/** A user's memberships and users' last activity against real PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
const admin = callerHeader(adminCaller());
let member: { id: number; username: string };
let asMember: Record<string, string>;
const ids = { group: 0, project: 0 };

async function created(path: string, body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await harness.api.post(path).set(admin).send(body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

beforeAll(async () => {
  harness = await startIdentityHarness('user_memberships');
  member = await harness.createUser('ms-member');
  asMember = callerHeader(userCaller(member.id, member.username));
  ids.group = (await created('/api/v4/groups', { name: 'Members Group', path: 'ms-group' })).id;
  ids.project = (await created('/api/v4/projects', { name: 'Members App', path: 'ms-app', namespace_id: ids.group })).id;
  await created(`/api/v4/groups/${ids.group}/members`, { user_id: member.id, access_level: 20 });
  await created(`/api/v4/projects/${ids.project}/members`, { user_id: member.id, access_level: 40 });
});

afterAll(async () => {
  await harness?.stop();
});

describe('GET /users/:user_id/memberships', () => {
  it("lists a user's group and project memberships, narrowed by type", async () => {
    const all = await harness.api.get(`/api/v4/users/${member.id}/memberships`).set(admin);
    expect([all.status, all.headers['x-total'], all.body]).toEqual([
      200,
      '2',
      [
        { source_id: ids.group, source_name: 'Members Group', source_type: 'Namespace', access_level: 20 },
        { source_id: ids.project, source_name: 'Members App', source_type: 'Project', access_level: 40 },
      ],
    ]);
    const projects = await harness.api.get(`/api/v4/users/${member.id}/memberships`).query({ type: 'Project' }).set(admin);
    expect(projects.body.map((membership: { source_id: number }) => membership.source_id)).toEqual([ids.project]);
    const groups = await harness.api.get(`/api/v4/users/${member.id}/memberships`).query({ type: 'Namespace' }).set(admin);
    expect(groups.body.map((membership: { source_id: number }) => membership.source_id)).toEqual([ids.group]);
  });

  it('is for administrators, 404 for an unknown user, 400 for an unknown type', async () => {
    expect((await harness.api.get(`/api/v4/users/${member.id}/memberships`).set(asMember)).status).toBe(403);
    expect((await harness.api.get('/api/v4/users/999999/memberships').set(admin)).body).toEqual({ message: '404 User Not Found' });
    const type = await harness.api.get(`/api/v4/users/${member.id}/memberships`).query({ type: 'Group' }).set(admin);
    expect([type.status, type.body]).toEqual([400, { error: 'type does not have a valid value' }]);
  });
});

describe('GET /user/activities', () => {
  it('lists users active since from (six months by default), least recent first; private profiles to administrators only', async () => {
    const hidden = await harness.createUser('ms-private', { private_profile: true });
    const recent = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const older = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const ancient = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
    await harness.sql('update users set last_activity_on = null');
    await harness.sql('update users set last_activity_on = $1 where id = $2', [recent, member.id]);
    await harness.sql('update users set last_activity_on = $1 where id = $2', [older, hidden.id]);
    await harness.sql('update users set last_activity_on = $1 where username = $2', [ancient, 'root']);
    const asAdmin = await harness.api.get('/api/v4/user/activities').set(admin);
    expect([asAdmin.status, asAdmin.body]).toEqual([
      200,
      [
        { username: 'ms-private', last_activity_on: older, last_activity_at: older },
        { username: 'ms-member', last_activity_on: recent, last_activity_at: recent },
      ],
    ]);
    expect((await harness.api.get('/api/v4/user/activities').set(asMember)).body).toEqual([
      { username: 'ms-member', last_activity_on: recent, last_activity_at: recent },
    ]);
    const since = await harness.api.get('/api/v4/user/activities').query({ from: ancient }).set(admin);
    expect(since.body.map((activity: { username: string }) => activity.username)).toEqual(['root', 'ms-private', 'ms-member']);
    expect((await harness.api.get('/api/v4/user/activities').query({ from: 'soon' }).set(admin)).body).toEqual({
      error: 'from is invalid',
    });
    expect((await harness.api.get('/api/v4/user/activities').set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);
  });
});
