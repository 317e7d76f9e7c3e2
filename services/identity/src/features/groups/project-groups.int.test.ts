/**
 * Projects' groups and storage, and users' projects, against real PostgreSQL: `GET /projects/:id/groups`,
 * `GET /projects/:id/storage` and `GET /users/:user_id/projects`.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, TEST_EXTERNAL_URL, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
const admin = callerHeader(adminCaller());
let asReporter: Record<string, string>;
let asStranger: Record<string, string>;
const ids = { top: 0, sub: 0, project: 0, shared: 0, hidden: 0, personal: 0, publicPersonal: 0, reporter: 0 };

async function created(path: string, body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await harness.api.post(path).set(admin).send(body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

const groupIds = (body: Array<{ id: number }>) => body.map((group) => group.id);

beforeAll(async () => {
  harness = await startIdentityHarness('project_groups');
  const reporter = await harness.createUser('pg-reporter');
  const stranger = await harness.createUser('pg-stranger');
  asReporter = callerHeader(userCaller(reporter.id, reporter.username));
  asStranger = callerHeader(userCaller(stranger.id, stranger.username));
  ids.top = (await created('/api/v4/groups', { name: 'Top', path: 'pg-top', visibility: 'private' })).id;
  ids.sub = (await created('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: ids.top, visibility: 'private' })).id;
  ids.project = (await created('/api/v4/projects', { name: 'App', path: 'app', namespace_id: ids.sub })).id;
  ids.shared = (await created('/api/v4/groups', { name: 'Shared team', path: 'pg-shared', visibility: 'internal' })).id;
  ids.hidden = (await created('/api/v4/groups', { name: 'Hidden', path: 'pg-hidden', visibility: 'private' })).id;
  await created(`/api/v4/projects/${ids.project}/share`, { group_id: ids.shared, group_access: 30 });
  await created(`/api/v4/projects/${ids.project}/share`, { group_id: ids.hidden, group_access: 10 });
  await created(`/api/v4/projects/${ids.project}/members`, { user_id: reporter.id, access_level: 20 });
  const personal = await harness.api.post('/api/v4/projects').set(asReporter).send({ name: 'Own' });
  ids.personal = personal.body.id;
  ids.publicPersonal = (await harness.api.post('/api/v4/projects').set(asReporter).send({ name: 'Shown', visibility: 'public' })).body.id;
  ids.reporter = reporter.id;
});

afterAll(async () => {
  await harness?.stop();
});

describe('GET /projects/:id/groups', () => {
  it("lists the project's group and its ancestors, newest first, as PublicGroupDetails", async () => {
    const response = await harness.api.get(`/api/v4/projects/${ids.project}/groups`).set(asReporter);
    expect(response.status).toBe(200);
    expect(response.headers['x-total']).toBe('2');
    expect(response.body).toEqual([
      {
        id: ids.sub,
        web_url: `${TEST_EXTERNAL_URL}/groups/pg-top/sub`,
        name: 'Sub',
        avatar_url: null,
        full_name: 'Top / Sub',
        full_path: 'pg-top/sub',
      },
      { id: ids.top, web_url: `${TEST_EXTERNAL_URL}/groups/pg-top`, name: 'Top', avatar_url: null, full_name: 'Top', full_path: 'pg-top' },
    ]);
  });

  it('adds the groups it is shared with, filtered by access level, visibility, search and skip_groups', async () => {
    const get = (query: Record<string, unknown>) => harness.api.get(`/api/v4/projects/${ids.project}/groups`).query(query).set(asReporter);
    expect(groupIds((await get({ with_shared: true })).body)).toEqual([ids.hidden, ids.shared, ids.sub, ids.top]);
    expect(groupIds((await get({ with_shared: true, shared_min_access_level: 30 })).body)).toEqual([ids.shared, ids.sub, ids.top]);
    expect(groupIds((await get({ with_shared: true, shared_visible_only: true })).body)).toEqual([ids.shared, ids.sub, ids.top]);
    expect(groupIds((await get({ with_shared: true, search: 'team' })).body)).toEqual([ids.shared]);
    expect(groupIds((await get({ with_shared: true, skip_groups: `${ids.top},${ids.hidden}` })).body)).toEqual([ids.shared, ids.sub]);
    expect(groupIds((await get({ search: 'SUB' })).body)).toEqual([ids.sub]);
  });

  it("lists nothing for a user's project, 404 for one the caller may not see, 400 for a bad access level", async () => {
    const personal = await harness.api.get(`/api/v4/projects/${ids.personal}/groups`).set(asReporter);
    expect([personal.status, personal.body]).toEqual([200, []]);
    const hidden = await harness.api.get(`/api/v4/projects/${ids.project}/groups`).set(asStranger);
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const level = await harness.api.get(`/api/v4/projects/${ids.project}/groups`).query({ shared_min_access_level: 25 }).set(asReporter);
    expect([level.status, level.body]).toEqual([400, { error: 'shared_min_access_level does not have a valid value' }]);
  });
});

describe('GET /projects/:id/storage', () => {
  it('shows administrators where the repository lives, in the hashed layout', async () => {
    const hash = createHash('sha256').update(String(ids.project)).digest('hex');
    const response = await harness.api.get('/api/v4/projects/pg-top%2Fsub%2Fapp/storage').set(admin);
    expect([response.status, response.body]).toEqual([
      200,
      {
        project_id: ids.project,
        disk_path: `@hashed/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
        repository_storage: 'default',
        created_at: expect.any(String),
      },
    ]);
  });

  it('is for administrators only, and 404 for an unknown project', async () => {
    expect((await harness.api.get(`/api/v4/projects/${ids.project}/storage`).set(asReporter)).status).toBe(403);
    expect((await harness.api.get('/api/v4/projects/999999/storage').set(admin)).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET /users/:user_id/projects', () => {
  const projectIds = (body: Array<{ id: number }>) => body.map((project) => project.id).sort((a, b) => a - b);

  it("lists the projects of the user's personal namespace that the caller may see, by id or username", async () => {
    const own = await harness.api.get(`/api/v4/users/${ids.reporter}/projects`).set(asReporter);
    expect([own.status, projectIds(own.body)]).toEqual([200, [ids.personal, ids.publicPersonal]]);
    expect(own.body[0]).toMatchObject({ namespace: { kind: 'user', path: 'pg-reporter' } });
    const byName = await harness.api.get('/api/v4/users/pg-reporter/projects').set(asStranger);
    expect(projectIds(byName.body)).toEqual([ids.publicPersonal]);
    const anonymous = await harness.api.get('/api/v4/users/pg-reporter/projects').set(callerHeader({ kind: 'anonymous' }));
    expect(projectIds(anonymous.body)).toEqual([ids.publicPersonal]);
    const filtered = await harness.api
      .get(`/api/v4/users/${ids.reporter}/projects`)
      .query({ visibility: 'private', simple: true })
      .set(admin);
    expect(projectIds(filtered.body)).toEqual([ids.personal]);
  });

  it('answers 404 for an unknown user and 400 for a bad order', async () => {
    expect((await harness.api.get('/api/v4/users/nobody-here/projects').set(admin)).body).toEqual({ message: '404 User Not Found' });
    const order = await harness.api.get(`/api/v4/users/${ids.reporter}/projects`).query({ order_by: 'size' }).set(admin);
    expect(order.status).toBe(400);
  });
});
