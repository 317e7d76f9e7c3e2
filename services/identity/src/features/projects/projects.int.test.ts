/** Projects against real PostgreSQL and Kafka: create, read, update, delete, sharing, stars and every list parameter. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ProjectUpdated } from '@platform/proto/identity/v1/namespace-events';
import { adminCaller, gitlabSchemaErrors } from '@platform/testing';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

type UserCaller = Caller & { kind: 'user' };

let kit: IdentityHarness;
const admin = adminCaller();
const anonymous: Caller = { kind: 'anonymous' };
let owner: UserCaller;
let developer: UserCaller;
let guest: UserCaller;
let outsider: UserCaller;
let external: UserCaller;
let groupId: number;
let subgroupId: number;
let otherGroupId: number;
/** Project ids by path with namespace. */
const ids: Record<string, number> = {};

async function createProject(caller: Caller, body: Record<string, unknown>) {
  const response = await kit.api.post('/api/v4/projects').set(kit.as(caller)).send(body);
  if (response.status !== 201) throw new Error(`creating project: ${response.status} ${JSON.stringify(response.body)}`);
  ids[response.body.path_with_namespace as string] = response.body.id as number;
  return response.body as { id: number; path_with_namespace: string };
}

async function listPaths(path: string, caller: Caller, query: Record<string, unknown> = {}): Promise<string[]> {
  const response = await kit.api
    .get(path)
    .query({ per_page: 100, ...query })
    .set(kit.as(caller));
  if (response.status !== 200) throw new Error(`listing ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as Array<{ path_with_namespace: string }>).map((project) => project.path_with_namespace);
}

beforeAll(async () => {
  kit = await startIdentityHarness('projects');
  owner = await kit.createCaller('powner');
  developer = await kit.createCaller('pdeveloper');
  guest = await kit.createCaller('pguest');
  outsider = await kit.createCaller('poutsider');
  external = await kit.createCaller('pexternal', { external: true });

  const group = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Acme', path: 'acme', visibility: 'public' });
  groupId = group.body.id;
  const subgroup = await kit.api
    .post('/api/v4/groups')
    .set(kit.as(owner))
    .send({ name: 'Tools', path: 'tools', parent_id: groupId, visibility: 'public' });
  subgroupId = subgroup.body.id;
  const other = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Partners', path: 'partners', visibility: 'private' });
  otherGroupId = other.body.id;
  await kit.api.post(`/api/v4/groups/${groupId}/members`).set(kit.as(owner)).send({ user_id: developer.userId, access_level: 30 });
  await kit.api.post(`/api/v4/groups/${groupId}/members`).set(kit.as(owner)).send({ user_id: guest.userId, access_level: 10 });

  await createProject(owner, {
    name: 'Rocket Engine',
    path: 'rocket',
    namespace_id: groupId,
    visibility: 'public',
    description: 'propulsion',
    topics: 'space,engines',
  });
  await createProject(owner, { name: 'Launchpad', namespace_id: groupId, visibility: 'internal', merge_requests_enabled: false });
  await createProject(owner, { name: 'Vault', namespace_id: groupId, visibility: 'private', issues_access_level: 'disabled' });
  await createProject(owner, { name: 'Wrench', namespace_id: subgroupId, visibility: 'public' });
  await createProject(owner, { name: 'Contract', namespace_id: otherGroupId, visibility: 'private' });
});

afterAll(async () => {
  await kit?.stop();
});

describe('POST /projects', () => {
  it('creates a personal project owned by its creator', async () => {
    const response = await kit.api.post('/api/v4/projects').set(kit.as(outsider)).send({ name: 'My Notes' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'My Notes',
      path: 'my-notes',
      path_with_namespace: 'poutsider/my-notes',
      name_with_namespace: 'User poutsider / My Notes',
      visibility: 'private',
      web_url: 'http://platform.test/poutsider/my-notes',
      namespace: { kind: 'user', full_path: 'poutsider', parent_id: null },
      owner: { username: 'poutsider' },
      creator_id: outsider.userId,
    });
    const members = await kit.api.get(`/api/v4/projects/${response.body.id}/members`).set(kit.as(outsider));
    expect(members.body).toEqual([expect.objectContaining({ username: 'poutsider', access_level: 50 })]);
  });

  it('lets developers of a group create projects there, making them maintainers', async () => {
    const response = await kit.api.post('/api/v4/projects').set(kit.as(developer)).send({ path: 'dev-made', namespace_id: groupId });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe('dev-made');
    const member = await kit.api.get(`/api/v4/projects/${response.body.id}/members/${developer.userId}`).set(kit.as(developer));
    expect(member.body.access_level).toBe(40);
    const asGuest = await kit.api.post('/api/v4/projects').set(kit.as(guest)).send({ name: 'Nope', namespace_id: groupId });
    expect(asGuest.status).toBe(400);
    expect(asGuest.body).toEqual({ message: { namespace: ['is not valid'] } });
    const invisible = await kit.api.post('/api/v4/projects').set(kit.as(outsider)).send({ name: 'Nope', namespace_id: otherGroupId });
    expect(invisible.body).toEqual({ message: '404 Namespace Not Found' });
  });

  it('answers 400 for missing, malformed or taken names and paths', async () => {
    expect((await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ description: 'x' })).body).toEqual({
      error: 'name, path are missing, at least one parameter must be provided',
    });
    expect(
      (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Rocket Engine', path: 'other', namespace_id: groupId }))
        .body,
    ).toEqual({
      message: { name: ['has already been taken'] },
    });
    expect(
      (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Other', path: 'ROCKET', namespace_id: groupId })).body,
    ).toEqual({
      message: { path: ['has already been taken'] },
    });
    expect((await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'x', path: 'bad path' })).status).toBe(400);
    expect((await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'x', issues_access_level: 'sometimes' })).body).toEqual({
      error: 'issues_access_level does not have a valid value',
    });
    expect((await kit.api.post('/api/v4/projects').set(kit.as(anonymous)).send({ name: 'x' })).status).toBe(401);
  });

  it('keeps a project no more visible than its group', async () => {
    const response = await kit.api
      .post('/api/v4/projects')
      .set(kit.as(owner))
      .send({ name: 'Loud', namespace_id: otherGroupId, visibility: 'public' });
    expect(response.status).toBe(400);
    expect(response.body.message.visibility_level).toEqual(['public is not allowed in a private group.']);
  });
});

describe('GET /projects/:id', () => {
  it('accepts a URL-encoded full path and shows permissions', async () => {
    const response = await kit.api.get('/api/v4/projects/acme%2FRocket').set(kit.as(developer));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: ids['acme/rocket'],
      name_with_namespace: 'Acme / Rocket Engine',
      topics: ['space', 'engines'],
      issues_enabled: true,
      container_expiration_policy: { cadence: '1d', enabled: false, keep_n: 10, older_than: '90d', name_regex: '.*' },
      permissions: { project_access: null, group_access: { access_level: 30, notification_level: 3 } },
    });
    expect((await kit.api.get('/api/v4/projects/acme%2Ftools%2Fwrench').set(kit.as(anonymous))).status).toBe(200);
  });

  it('shows each project to exactly those allowed to see it, and 404 to the rest', async () => {
    const cases: Array<[string, Caller, number]> = [
      ['acme/rocket', anonymous, 200],
      ['acme/launchpad', anonymous, 404],
      ['acme/launchpad', outsider, 200],
      ['acme/launchpad', external, 404],
      ['acme/vault', outsider, 404],
      ['acme/vault', guest, 200],
      ['acme/vault', admin, 200],
      ['partners/contract', developer, 404],
    ];
    for (const [path, caller, status] of cases) {
      const response = await kit.api.get(`/api/v4/projects/${encodeURIComponent(path)}`).set(kit.as(caller));
      const who = caller.kind === 'user' ? caller.username : 'anonymous';
      expect({ path, who, status: response.status }).toEqual({ path, who, status });
    }
    expect((await kit.api.get('/api/v4/projects/acme%2Fvault').set(kit.as(outsider))).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('PUT /projects/:id', () => {
  it('lets maintainers change settings and records identity.project.updated', async () => {
    const response = await kit.api
      .put(`/api/v4/projects/${ids['acme/launchpad']}`)
      .set(kit.as(owner))
      .send({
        description: 'pads',
        container_expiration_policy_attributes: { enabled: true, cadence: '7d', keep_n: 5, name_regex_keep: 'v.*' },
      });
    expect(response.status).toBe(200);
    expect(response.body.description).toBe('pads');
    expect(response.body.container_expiration_policy).toMatchObject({ enabled: true, cadence: '7d', keep_n: 5, name_regex_keep: 'v.*' });
    expect(new Date(response.body.container_expiration_policy.next_run_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    const events = await kit.sql<{ envelope: { data: unknown } }>(
      "select envelope from outbox where envelope->>'type' = 'identity.project.updated' and key = $1",
      [String(ids['acme/launchpad'])],
    );
    const { changes } = ProjectUpdated.fromJSON(events[0]?.envelope.data);
    expect(changes).toEqual(
      expect.arrayContaining([
        { attribute: 'description', from: '', to: 'pads' },
        { attribute: 'container_expiration_policy_cadence', from: '1d', to: '7d' },
      ]),
    );
  });

  it('validates the cleanup policy and visibility', async () => {
    const badRegex = await kit.api
      .put(`/api/v4/projects/${ids['acme/launchpad']}`)
      .set(kit.as(owner))
      .send({ container_expiration_policy_attributes: { name_regex: '(' } });
    expect(badRegex.body).toEqual({ message: { 'container_expiration_policy.name_regex': ['not valid RE2 syntax'] } });
    const badCadence = await kit.api
      .put(`/api/v4/projects/${ids['acme/launchpad']}`)
      .set(kit.as(owner))
      .send({ container_expiration_policy_attributes: { cadence: '2d' } });
    expect(badCadence.body).toEqual({ error: 'container_expiration_policy_attributes[cadence] does not have a valid value' });
    const tooVisible = await kit.api
      .put(`/api/v4/projects/${ids['partners/contract']}`)
      .set(kit.as(owner))
      .send({ visibility: 'internal' });
    expect(tooVisible.status).toBe(400);
  });

  it('is for maintainers: 403 for developers, 404 where invisible', async () => {
    expect((await kit.api.put(`/api/v4/projects/${ids['acme/rocket']}`).set(kit.as(developer)).send({ description: 'x' })).status).toBe(
      403,
    );
    expect((await kit.api.put(`/api/v4/projects/${ids['acme/vault']}`).set(kit.as(outsider)).send({ description: 'x' })).status).toBe(404);
  });
});

describe('stars and archiving', () => {
  it('stars once (304 after) and counts stars', async () => {
    const starred = await kit.api.post(`/api/v4/projects/${ids['acme/rocket']}/star`).set(kit.as(outsider));
    expect(starred.status).toBe(201);
    expect(starred.body.star_count).toBe(1);
    expect((await kit.api.post(`/api/v4/projects/${ids['acme/rocket']}/star`).set(kit.as(outsider))).status).toBe(304);
    expect((await kit.api.post(`/api/v4/projects/${ids['acme/rocket']}/unstar`).set(kit.as(developer))).status).toBe(304);
    expect((await kit.api.post(`/api/v4/projects/${ids['acme/rocket']}/star`).set(kit.as(anonymous))).status).toBe(401);
  });

  it('archives and unarchives for maintainers', async () => {
    const archived = await kit.api.post(`/api/v4/projects/${ids['acme/tools/wrench']}/archive`).set(kit.as(owner));
    expect(archived.status).toBe(201);
    expect(archived.body.archived).toBe(true);
    expect((await kit.api.post(`/api/v4/projects/${ids['acme/tools/wrench']}/archive`).set(kit.as(developer))).status).toBe(403);
  });
});

describe('POST /projects/:id/share', () => {
  it('gives the members of a group access up to the share level', async () => {
    const team = await kit.api.post('/api/v4/groups').set(kit.as(outsider)).send({ name: 'Crew', path: 'crew', visibility: 'private' });
    const invisible = await kit.api
      .post(`/api/v4/projects/${ids['acme/vault']}/share`)
      .set(kit.as(owner))
      .send({ group_id: team.body.id, group_access: 20 });
    expect(invisible.body).toEqual({ message: '404 Group Not Found' });
    await kit.api.post(`/api/v4/groups/${team.body.id}/members`).set(kit.as(outsider)).send({ user_id: owner.userId, access_level: 10 });

    const response = await kit.api
      .post(`/api/v4/projects/${ids['acme/vault']}/share`)
      .set(kit.as(owner))
      .send({ group_id: team.body.id, group_access: 20 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      project_id: ids['acme/vault'],
      group_id: team.body.id,
      group_access: 20,
      expires_at: null,
    });
    const asOutsider = await kit.api.get(`/api/v4/projects/${ids['acme/vault']}`).set(kit.as(outsider));
    expect(asOutsider.status).toBe(200);
    expect(asOutsider.body.shared_with_groups).toEqual([
      { group_id: team.body.id, group_name: 'Crew', group_full_path: 'crew', group_access_level: 20, expires_at: null },
    ]);
    const asGuest = await kit.api.get(`/api/v4/projects/${ids['acme/vault']}`).set(kit.as(guest));
    expect(asGuest.body.shared_with_groups).toEqual([]);
    expect(await listPaths(`/api/v4/groups/${team.body.id}/projects/shared`, outsider)).toEqual(['acme/vault']);
    expect(await listPaths(`/api/v4/groups/${team.body.id}/projects`, outsider)).toEqual(['acme/vault']);
    expect(await listPaths(`/api/v4/groups/${team.body.id}/projects`, outsider, { with_shared: false })).toEqual([]);

    expect(
      (
        await kit.api
          .post(`/api/v4/projects/${ids['acme/vault']}/share`)
          .set(kit.as(developer))
          .send({ group_id: team.body.id, group_access: 20 })
      ).status,
    ).toBe(403);
    expect(
      (
        await kit.api
          .post(`/api/v4/projects/${ids['acme/vault']}/share`)
          .set(kit.as(owner))
          .send({ group_id: team.body.id, group_access: 25 })
      ).body,
    ).toEqual({
      error: 'group_access does not have a valid value',
    });
    expect((await kit.api.delete(`/api/v4/projects/${ids['acme/vault']}/share/${team.body.id}`).set(kit.as(owner))).status).toBe(204);
    expect((await kit.api.get(`/api/v4/projects/${ids['acme/vault']}`).set(kit.as(outsider))).status).toBe(404);
  });
});

describe('GET /projects', () => {
  it('shows anonymous callers public projects, users what they may see, administrators everything', async () => {
    expect(await listPaths('/api/v4/projects', anonymous, { order_by: 'path', sort: 'asc' })).toEqual(['acme/rocket', 'acme/tools/wrench']);
    const asOutsider = await listPaths('/api/v4/projects', outsider);
    expect(asOutsider).toEqual(expect.arrayContaining(['acme/launchpad', 'poutsider/my-notes']));
    expect(asOutsider).not.toContain('acme/vault');
    expect(await listPaths('/api/v4/projects', admin)).toEqual(expect.arrayContaining(['acme/vault', 'partners/contract']));
  });

  it('filters by owned, membership, starred, visibility, archived, features, topic and search', async () => {
    expect(await listPaths('/api/v4/projects', outsider, { owned: true })).toEqual(['poutsider/my-notes']);
    expect(await listPaths('/api/v4/projects', guest, { membership: true, order_by: 'path', sort: 'asc' })).toEqual([
      'acme/dev-made',
      'acme/launchpad',
      'acme/rocket',
      'acme/vault',
      'acme/tools/wrench',
    ]);
    expect(await listPaths('/api/v4/projects', developer, { min_access_level: 40 })).toEqual(['acme/dev-made']);
    expect(await listPaths('/api/v4/projects', outsider, { starred: true })).toEqual(['acme/rocket']);
    expect(await listPaths('/api/v4/projects', admin, { visibility: 'internal' })).toEqual(['acme/launchpad']);
    expect(await listPaths('/api/v4/projects', admin, { archived: true })).toEqual(['acme/tools/wrench']);
    const withIssues = await listPaths('/api/v4/projects', admin, { with_issues_enabled: true });
    expect(withIssues).not.toContain('acme/vault');
    expect(withIssues).toContain('acme/rocket');
    expect(await listPaths('/api/v4/projects', admin, { with_merge_requests_enabled: true })).not.toContain('acme/launchpad');
    expect(await listPaths('/api/v4/projects', admin, { topic: 'space' })).toEqual(['acme/rocket']);
    expect(await listPaths('/api/v4/projects', admin, { search: 'PROPUL' })).toEqual(['acme/rocket']);
    expect(await listPaths('/api/v4/projects', admin, { search: 'acme/roc', search_namespaces: true })).toEqual(['acme/rocket']);
    expect(await listPaths('/api/v4/projects', admin, { id_after: ids['partners/contract'], order_by: 'id', sort: 'asc' })).not.toContain(
      'acme/rocket',
    );
  });

  it('orders by each column and direction, and by similarity to the search', async () => {
    const byName = await kit.api.get('/api/v4/projects').query({ order_by: 'name', sort: 'asc', per_page: 100 }).set(kit.as(admin));
    const names = (byName.body as Array<{ name: string }>).map((project) => project.name);
    expect(names.length).toBeGreaterThan(3);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const byPathDesc = await listPaths('/api/v4/projects', admin, { order_by: 'path', sort: 'desc', search: 'r' });
    expect(byPathDesc).toEqual(['acme/tools/wrench', 'acme/rocket', 'partners/contract']);
    expect(await listPaths('/api/v4/projects', admin, { order_by: 'id', sort: 'asc', per_page: 2 })).toEqual([
      'acme/rocket',
      'acme/launchpad',
    ]);
    expect(await listPaths('/api/v4/projects', admin, { order_by: 'created_at', per_page: 1 })).not.toEqual(['acme/rocket']);
    const similar = await listPaths('/api/v4/projects', admin, { order_by: 'similarity', search: 'rocket' });
    expect(similar[0]).toBe('acme/rocket');
  });

  it('answers in the simple view when asked, matching GitLab’s schema', async () => {
    const response = await kit.api.get('/api/v4/projects').query({ simple: true }).set(kit.as(anonymous));
    expect(response.body[0]).not.toHaveProperty('permissions');
    expect(response.body[0]).not.toHaveProperty('container_expiration_policy');
    for (const item of response.body) expect(gitlabSchemaErrors('project.json', item)).toEqual([]);
  });

  it('answers 400 for invalid parameters', async () => {
    expect((await kit.api.get('/api/v4/projects').query({ order_by: 'size' }).set(kit.as(admin))).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await kit.api.get('/api/v4/projects').query({ visibility: 'secret' }).set(kit.as(admin))).status).toBe(400);
    expect((await kit.api.get('/api/v4/projects').query({ archived: 'maybe' }).set(kit.as(admin))).body).toEqual({
      error: 'archived is invalid',
    });
  });
});

describe('GET /groups/:id/projects', () => {
  const path = () => `/api/v4/groups/${groupId}/projects`;

  it('lists the group’s visible projects, with subgroups on request', async () => {
    expect(await listPaths(path(), anonymous, { order_by: 'path', sort: 'asc' })).toEqual(['acme/rocket']);
    expect(await listPaths(path(), anonymous, { include_subgroups: true, order_by: 'path', sort: 'asc' })).toEqual([
      'acme/rocket',
      'acme/tools/wrench',
    ]);
    expect(await listPaths('/api/v4/groups/acme%2Ftools/projects', anonymous)).toEqual(['acme/tools/wrench']);
    expect(await listPaths(path(), guest, { order_by: 'path', sort: 'asc' })).toEqual([
      'acme/dev-made',
      'acme/launchpad',
      'acme/rocket',
      'acme/vault',
    ]);
  });

  it('applies every filter and order', async () => {
    expect(await listPaths(path(), admin, { visibility: 'private', order_by: 'path', sort: 'asc' })).toEqual([
      'acme/dev-made',
      'acme/vault',
    ]);
    expect(await listPaths(path(), admin, { search: 'launch' })).toEqual(['acme/launchpad']);
    expect(await listPaths(path(), developer, { owned: true })).toEqual([]);
    expect(await listPaths(path(), owner, { owned: true })).toHaveLength(4);
    expect(await listPaths(path(), outsider, { starred: true })).toEqual(['acme/rocket']);
    expect(await listPaths(path(), admin, { with_issues_enabled: true })).not.toContain('acme/vault');
    expect(await listPaths(path(), admin, { with_merge_requests_enabled: true })).not.toContain('acme/launchpad');
    expect(await listPaths(path(), developer, { min_access_level: 40 })).toEqual(['acme/dev-made']);
    expect(await listPaths(path(), admin, { include_subgroups: true, archived: true })).toEqual(['acme/tools/wrench']);
    expect(await listPaths(path(), admin, { include_subgroups: true, archived: false })).not.toContain('acme/tools/wrench');
    expect(await listPaths(path(), admin, { with_security_reports: true })).toEqual([]);
    expect(await listPaths(path(), admin, { order_by: 'name', sort: 'asc' })).toEqual([
      'acme/dev-made',
      'acme/launchpad',
      'acme/rocket',
      'acme/vault',
    ]);
    expect(await listPaths(path(), admin, { order_by: 'name', sort: 'desc' })).toEqual([
      'acme/vault',
      'acme/rocket',
      'acme/launchpad',
      'acme/dev-made',
    ]);
    // Similarity ignores `sort` and falls back to name without a search.
    expect(await listPaths(path(), admin, { order_by: 'similarity', sort: 'desc' })).toEqual([
      'acme/dev-made',
      'acme/launchpad',
      'acme/rocket',
      'acme/vault',
    ]);
    expect((await listPaths(path(), admin, { order_by: 'similarity', search: 'vau' }))[0]).toBe('acme/vault');
  });

  it('shows custom attributes to administrators who ask, and the simple view', async () => {
    await kit.api.put(`/api/v4/projects/${ids['acme/rocket']}/custom_attributes/stage`).set(kit.as(admin)).send({ value: 'beta' });
    const response = await kit.api.get(path()).query({ with_custom_attributes: true, search: 'rocket' }).set(kit.as(admin));
    expect(response.body[0].custom_attributes).toEqual([{ key: 'stage', value: 'beta' }]);
    const simple = await kit.api.get(path()).query({ simple: true, search: 'rocket' }).set(kit.as(admin));
    expect(gitlabSchemaErrors('project.json', simple.body[0])).toEqual([]);
    const filtered = await listPaths('/api/v4/projects', admin, { 'custom_attributes[stage]': 'beta' });
    expect(filtered).toEqual(['acme/rocket']);
  });

  it('paginates with GitLab headers', async () => {
    const response = await kit.api.get(path()).query({ per_page: 1, page: 2 }).set(kit.as(admin));
    expect(response.headers).toMatchObject({ 'x-total': '4', 'x-total-pages': '4', 'x-page': '2', 'x-next-page': '3', 'x-prev-page': '1' });
  });

  it('answers 404 for an invisible group and 400 for unknown orders', async () => {
    expect((await kit.api.get(`/api/v4/groups/${otherGroupId}/projects`).set(kit.as(outsider))).status).toBe(404);
    expect(
      (await kit.api.get(`/api/v4/groups/${groupId}/projects/shared`).query({ order_by: 'similarity' }).set(kit.as(admin))).status,
    ).toBe(400);
  });
});

describe('DELETE /projects/:id', () => {
  it('is for owners, and removes the project', async () => {
    const project = await createProject(owner, { name: 'Temp', namespace_id: groupId });
    await kit.api.post(`/api/v4/projects/${project.id}/members`).set(kit.as(owner)).send({ user_id: developer.userId, access_level: 40 });
    expect((await kit.api.delete(`/api/v4/projects/${project.id}`).set(kit.as(developer))).status).toBe(403);
    const response = await kit.api.delete(`/api/v4/projects/${encodeURIComponent('acme/temp')}`).set(kit.as(owner));
    expect(response.status).toBe(202);
    expect((await kit.api.get(`/api/v4/projects/${project.id}`).set(kit.as(admin))).status).toBe(404);
  });
});

describe('GET /namespaces', () => {
  it('lists the caller’s own namespace and the groups they belong to', async () => {
    const list = async (caller: Caller, query: Record<string, unknown> = {}) =>
      ((await kit.api.get('/api/v4/namespaces').query(query).set(kit.as(caller))).body as Array<{ full_path: string; kind: string }>).map(
        (namespace) => `${namespace.kind}:${namespace.full_path}`,
      );
    expect(await list(guest)).toEqual(['user:pguest', 'group:acme', 'group:acme/tools']);
    expect(await list(owner, { owned_only: true })).toEqual(expect.arrayContaining(['user:powner', 'group:acme', 'group:partners']));
    expect(await list(developer, { owned_only: true })).toEqual(['user:pdeveloper']);
    expect(await list(guest, { search: 'tool' })).toEqual(['group:acme/tools']);
    expect((await list(admin)).length).toBeGreaterThan(8);
    expect((await kit.api.get('/api/v4/namespaces').set(kit.as(anonymous))).status).toBe(401);
  });

  it("shows one namespace by id or path, hiding invisible groups and other users' personal namespaces", async () => {
    const byPath = await kit.api.get('/api/v4/namespaces/acme%2Ftools').set(kit.as(outsider));
    expect(byPath.body).toMatchObject({
      id: subgroupId,
      kind: 'group',
      full_path: 'acme/tools',
      parent_id: groupId,
      web_url: 'http://platform.test/groups/acme/tools',
    });
    // A personal namespace is its owner's (and administrators') to see, as in GitLab.
    expect((await kit.api.get('/api/v4/namespaces/powner').set(kit.as(owner))).body).toMatchObject({ kind: 'user', path: 'powner' });
    expect((await kit.api.get('/api/v4/namespaces/powner').set(kit.as(admin))).body).toMatchObject({ kind: 'user', path: 'powner' });
    const othersPersonal = await kit.api.get('/api/v4/namespaces/powner').set(kit.as(outsider));
    expect(othersPersonal.status).toBe(404);
    expect(othersPersonal.body).toEqual({ message: '404 Namespace Not Found' });
    expect((await kit.api.get(`/api/v4/namespaces/${otherGroupId}`).set(kit.as(outsider))).body).toEqual({
      message: '404 Namespace Not Found',
    });
  });
});

describe('forks', () => {
  it('forks into the caller’s namespace, linked to its upstream; refuses taken paths (409), hidden projects (404) and guests of private ones (403)', async () => {
    const rocket = ids['acme/rocket'] as number;
    const fork = await kit.api.post(`/api/v4/projects/${rocket}/fork`).set(kit.as(outsider)).send({ name: 'My Rocket' });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({
      name: 'My Rocket',
      path: 'rocket',
      path_with_namespace: 'poutsider/rocket',
      visibility: 'public',
      description: 'propulsion',
      import_status: 'finished',
      forked_from_project: expect.objectContaining({ id: rocket, path_with_namespace: 'acme/rocket', forks_count: 1 }),
    });
    expect(gitlabSchemaErrors('project.json', fork.body.forked_from_project)).toEqual([]);
    const again = await kit.api.post(`/api/v4/projects/${rocket}/fork`).set(kit.as(outsider)).send({ name: 'Other Rocket' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: { path: ['has already been taken'] } });

    const vault = ids['acme/vault'] as number;
    expect((await kit.api.post(`/api/v4/projects/${vault}/fork`).set(kit.as(outsider))).status).toBe(404);
    expect((await kit.api.post(`/api/v4/projects/${vault}/fork`).set(kit.as(guest))).status).toBe(403);
    const intoGroup = await kit.api.post(`/api/v4/projects/${vault}/fork`).set(kit.as(developer)).send({ namespace_path: 'partners' });
    expect(intoGroup.status).toBe(404);
    expect(intoGroup.body).toEqual({ message: '404 Target Namespace Not Found' });
    const privateFork = await kit.api.post(`/api/v4/projects/${vault}/fork`).set(kit.as(developer)).send({ visibility: 'public' });
    expect(privateFork.body).toMatchObject({ path_with_namespace: 'pdeveloper/vault', visibility: 'private' });

    expect((await kit.api.get(`/api/v4/projects/${rocket}/forks`).set(kit.as(anonymous))).body.map((p: { id: number }) => p.id)).toEqual([
      fork.body.id,
    ]);
    expect((await kit.api.get(`/api/v4/projects/${rocket}`).set(kit.as(anonymous))).body.forks_count).toBe(1);
    expect((await kit.api.delete(`/api/v4/projects/${fork.body.id}/fork`).set(kit.as(developer))).status).toBe(403);
    expect((await kit.api.delete(`/api/v4/projects/${fork.body.id}/fork`).set(kit.as(outsider))).status).toBe(204);
    expect((await kit.api.delete(`/api/v4/projects/${fork.body.id}/fork`).set(kit.as(outsider))).status).toBe(304);
    expect((await kit.api.get(`/api/v4/projects/${fork.body.id}`).set(kit.as(outsider))).body).not.toHaveProperty('forked_from_project');
    expect((await kit.api.get(`/api/v4/projects/${rocket}/forks`).set(kit.as(anonymous))).body).toEqual([]);
  });
});
