/** Groups against real PostgreSQL and Kafka: create, read, update, delete, lists, sharing and visibility. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminCaller } from '@platform/testing';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

type UserCaller = Caller & { kind: 'user' };

let kit: IdentityHarness;
const admin = adminCaller();
const anonymous: Caller = { kind: 'anonymous' };
let owner: UserCaller;
let maintainer: UserCaller;
let developer: UserCaller;
let guest: UserCaller;
let outsider: UserCaller;
let external: UserCaller;
let noGroups: UserCaller;
/** Groups by full path, as created in `beforeAll`. */
const ids: Record<string, number> = {};

async function createGroup(caller: Caller, body: Record<string, unknown>) {
  const response = await kit.api.post('/api/v4/groups').set(kit.as(caller)).send(body);
  if (response.status !== 201) throw new Error(`creating group: ${response.status} ${JSON.stringify(response.body)}`);
  ids[response.body.full_path as string] = response.body.id as number;
  return response.body as { id: number; full_path: string };
}

async function addMember(groupId: number, user: UserCaller, accessLevel: number) {
  const response = await kit.api
    .post(`/api/v4/groups/${groupId}/members`)
    .set(kit.as(owner))
    .send({ user_id: user.userId, access_level: accessLevel });
  if (response.status !== 201) throw new Error(`adding member: ${response.status} ${JSON.stringify(response.body)}`);
}

async function listPaths(path: string, caller: Caller, query: Record<string, unknown> = {}): Promise<string[]> {
  const response = await kit.api.get(path).query(query).set(kit.as(caller));
  expect(response.status).toBe(200);
  return (response.body as Array<{ full_path: string }>).map((group) => group.full_path);
}

async function outboxTypes(aggregateId: number): Promise<string[]> {
  const rows = await kit.sql<{ type: string }>(
    "select envelope->>'type' as type from outbox where key = $1 and envelope->>'type' like 'identity.group.%' order by id",
    [String(aggregateId)],
  );
  return rows.map((row) => row.type);
}

beforeAll(async () => {
  kit = await startIdentityHarness('groups');
  owner = await kit.createCaller('gowner');
  maintainer = await kit.createCaller('gmaintainer');
  developer = await kit.createCaller('gdeveloper');
  guest = await kit.createCaller('gguest');
  outsider = await kit.createCaller('goutsider');
  external = await kit.createCaller('gexternal', { external: true });
  noGroups = await kit.createCaller('gnogroups', { can_create_group: false });

  const pub = await createGroup(owner, { name: 'Public Group', path: 'pub', visibility: 'public', description: 'open to all' });
  await createGroup(owner, { name: 'Internal Sub', path: 'internal-sub', parent_id: pub.id, visibility: 'internal' });
  const privateSub = await createGroup(owner, { name: 'Private Sub', path: 'private-sub', parent_id: pub.id, visibility: 'private' });
  await createGroup(owner, { name: 'Deep', path: 'deep', parent_id: privateSub.id, visibility: 'private' });
  await createGroup(owner, { name: 'Internal Group', path: 'intl', visibility: 'internal' });
  const secret = await createGroup(owner, { name: 'Secret', path: 'secret', visibility: 'private' });
  await createGroup(owner, { name: 'Zeta', path: 'aardvark', visibility: 'public' });
  await addMember(secret.id, guest, 10);
  await addMember(pub.id, maintainer, 40);
  await addMember(pub.id, developer, 30);
});

afterAll(async () => {
  await kit?.stop();
});

describe('POST /groups', () => {
  it('creates a group whose creator is its owner, recording identity.group.created', async () => {
    const response = await kit.api
      .post('/api/v4/groups')
      .set(kit.as(owner))
      .send({ name: 'Fresh', path: 'fresh', request_access_enabled: false });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Fresh',
      path: 'fresh',
      full_path: 'fresh',
      full_name: 'Fresh',
      visibility: 'private',
      parent_id: null,
      request_access_enabled: false,
      web_url: 'http://platform.test/groups/fresh',
      shared_with_groups: [],
    });
    expect(response.body.runners_token).toMatch(/^GR1348941/);
    const members = await kit.api.get(`/api/v4/groups/${response.body.id}/members`).set(kit.as(owner));
    expect(members.body).toEqual([expect.objectContaining({ username: 'gowner', access_level: 50 })]);
    expect(await outboxTypes(response.body.id)).toEqual(['identity.group.created']);
  });

  it('builds full paths and names of subgroups', async () => {
    const response = await kit.api.get(`/api/v4/groups/${ids['pub/private-sub/deep']}`).set(kit.as(owner));
    expect(response.body).toMatchObject({
      full_path: 'pub/private-sub/deep',
      full_name: 'Public Group / Private Sub / Deep',
      parent_id: ids['pub/private-sub'],
      web_url: 'http://platform.test/groups/pub/private-sub/deep',
    });
  });

  it('answers 400 for missing or malformed input, naming the field', async () => {
    const missing = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ path: 'nameless' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const badPath = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Bad', path: '-bad.git' });
    expect(badPath.status).toBe(400);
    expect(Object.keys(badPath.body.message)).toEqual(['path']);
    const badVisibility = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'V', path: 'v', visibility: 'secret' });
    expect(badVisibility.body).toEqual({ error: 'visibility does not have a valid value' });
    const badParent = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'P', path: 'p', parent_id: 'abc' });
    expect(badParent.body).toEqual({ error: 'parent_id is invalid' });
  });

  it('refuses a path taken by a group or a user, case-insensitively', async () => {
    const group = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Pub again', path: 'PUB' });
    expect(group.status).toBe(400);
    expect(group.body).toEqual({ message: { path: ['has already been taken'] } });
    const user = await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Owner', path: 'gowner' });
    expect(user.status).toBe(400);
  });

  it('keeps a subgroup no more visible than its parent', async () => {
    const response = await kit.api
      .post('/api/v4/groups')
      .set(kit.as(owner))
      .send({ name: 'Loud', path: 'loud', parent_id: ids['pub/private-sub'], visibility: 'public' });
    expect(response.status).toBe(400);
    expect(response.body.message.visibility_level[0]).toMatch(/public is not allowed since the parent group has a private visibility/);
  });

  it('needs a signed-in user allowed to create groups, and Maintainer in the parent for subgroups', async () => {
    expect((await kit.api.post('/api/v4/groups').set(kit.as(anonymous)).send({ name: 'A', path: 'anon' })).status).toBe(401);
    expect((await kit.api.post('/api/v4/groups').set(kit.as(noGroups)).send({ name: 'N', path: 'nope' })).status).toBe(403);
    const asDeveloper = await kit.api
      .post('/api/v4/groups')
      .set(kit.as(developer))
      .send({ name: 'D', path: 'dev-sub', parent_id: ids.pub });
    expect(asDeveloper.status).toBe(403);
    const asMaintainer = await kit.api
      .post('/api/v4/groups')
      .set(kit.as(maintainer))
      .send({ name: 'M', path: 'maint-sub', parent_id: ids.pub });
    expect(asMaintainer.status).toBe(201);
    const invisibleParent = await kit.api
      .post('/api/v4/groups')
      .set(kit.as(outsider))
      .send({ name: 'S', path: 's', parent_id: ids.secret });
    expect(invisibleParent.status).toBe(404);
    expect(invisibleParent.body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups/:id', () => {
  it('accepts a URL-encoded full path, case-insensitively', async () => {
    const response = await kit.api.get('/api/v4/groups/PUB%2Fprivate-sub').set(kit.as(owner));
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(ids['pub/private-sub']);
  });

  it('shows each group to exactly those allowed to see it, and 404 to the rest', async () => {
    const cases: Array<[string, Caller, number]> = [
      ['pub', anonymous, 200],
      ['intl', anonymous, 404],
      ['intl', outsider, 200],
      ['intl', external, 404],
      ['secret', outsider, 404],
      ['secret', guest, 200],
      ['secret', admin, 200],
      ['pub/private-sub', developer, 200],
      ['pub/private-sub', outsider, 404],
    ];
    for (const [path, caller, status] of cases) {
      const response = await kit.api.get(`/api/v4/groups/${encodeURIComponent(path)}`).set(kit.as(caller));
      expect({ path, caller: caller.kind === 'user' ? caller.username : 'anonymous', status: response.status }).toEqual({
        path,
        caller: caller.kind === 'user' ? caller.username : 'anonymous',
        status,
      });
    }
  });

  it('shows a private parent to members of something inside it', async () => {
    const parent = await createGroup(owner, { name: 'Outer', path: 'outer', visibility: 'private' });
    const inner = await createGroup(owner, { name: 'Inner', path: 'inner', parent_id: parent.id, visibility: 'private' });
    expect((await kit.api.get('/api/v4/groups/outer').set(kit.as(outsider))).status).toBe(404);
    await addMember(inner.id, outsider, 20);
    expect((await kit.api.get('/api/v4/groups/outer').set(kit.as(outsider))).status).toBe(200);
    expect(await listPaths('/api/v4/groups', outsider)).toEqual(expect.arrayContaining(['outer', 'outer/inner']));
  });

  it('shows the runners token to group administrators only', async () => {
    const asOwner = await kit.api.get('/api/v4/groups/pub').set(kit.as(owner));
    expect(asOwner.body.runners_token).toMatch(/^GR1348941/);
    const asAdmin = await kit.api.get('/api/v4/groups/pub').set(kit.as(admin));
    expect(asAdmin.body.runners_token).toBe(asOwner.body.runners_token);
    const asMaintainer = await kit.api.get('/api/v4/groups/pub').set(kit.as(maintainer));
    expect(asMaintainer.body).not.toHaveProperty('runners_token');
    expect((await kit.api.get('/api/v4/groups/pub').set(kit.as(anonymous))).body).not.toHaveProperty('runners_token');
  });

  it('shows prevent_sharing_groups_outside_hierarchy of top-level groups only, as GitLab does', async () => {
    expect((await kit.api.get('/api/v4/groups/pub').set(kit.as(owner))).body).toHaveProperty(
      'prevent_sharing_groups_outside_hierarchy',
      false,
    );
    expect((await kit.api.get('/api/v4/groups/pub%2Finternal-sub').set(kit.as(owner))).body).not.toHaveProperty(
      'prevent_sharing_groups_outside_hierarchy',
    );
  });

  it('lists the deprecated projects and shared_projects unless with_projects=false', async () => {
    const project = await kit.api
      .post('/api/v4/projects')
      .set(kit.as(owner))
      .send({ name: 'Listed', namespace_id: ids.pub, visibility: 'public' });
    expect(project.status).toBe(201);
    const newer = await kit.api
      .post('/api/v4/projects')
      .set(kit.as(owner))
      .send({ name: 'Newer', namespace_id: ids.pub, visibility: 'public' });
    expect(newer.status).toBe(201);
    const other = await createGroup(owner, { name: 'Sharer', path: 'sharer', visibility: 'public' });
    const shared = await kit.api
      .post('/api/v4/projects')
      .set(kit.as(owner))
      .send({ name: 'Lent', namespace_id: other.id, visibility: 'public' });
    expect(
      (await kit.api.post(`/api/v4/projects/${shared.body.id}/share`).set(kit.as(owner)).send({ group_id: ids.pub, group_access: 30 }))
        .status,
    ).toBe(201);

    const details = await kit.api.get('/api/v4/groups/pub').set(kit.as(anonymous));
    expect(details.body.projects.map((item: { path_with_namespace: string }) => item.path_with_namespace)).toEqual([
      'pub/newer',
      'pub/listed',
    ]);
    expect(details.body.shared_projects.map((item: { path_with_namespace: string }) => item.path_with_namespace)).toEqual(['sharer/lent']);
    const without = await kit.api.get('/api/v4/groups/pub').query({ with_projects: false }).set(kit.as(anonymous));
    expect(without.body).not.toHaveProperty('projects');
    expect(without.body).not.toHaveProperty('shared_projects');
  });

  it('answers 404 for an unknown group and 400 for a malformed id', async () => {
    expect((await kit.api.get('/api/v4/groups/999999').set(kit.as(admin))).body).toEqual({ message: '404 Group Not Found' });
    expect((await kit.api.get('/api/v4/groups/no%2Fsuch').set(kit.as(admin))).status).toBe(404);
    expect((await kit.api.get('/api/v4/groups/-1').set(kit.as(admin))).status).toBe(400);
    expect((await kit.api.get('/api/v4/groups/99999999999').set(kit.as(admin))).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups', () => {
  it('lists public groups to anonymous callers', async () => {
    const paths = await listPaths('/api/v4/groups', anonymous, { per_page: 100 });
    expect(paths).toContain('pub');
    expect(paths).not.toContain('intl');
    expect(paths).not.toContain('secret');
    expect(paths).not.toContain('pub/private-sub');
  });

  it('lists only related groups to users unless all_available=true', async () => {
    expect(await listPaths('/api/v4/groups', guest, { per_page: 100 })).toEqual(['secret']);
    const all = await listPaths('/api/v4/groups', guest, { all_available: true, per_page: 100 });
    expect(all).toEqual(expect.arrayContaining(['secret', 'pub', 'intl', 'pub/internal-sub']));
    expect(all).not.toContain('pub/private-sub');
    const externalAll = await listPaths('/api/v4/groups', external, { all_available: true, per_page: 100 });
    expect(externalAll).toContain('pub');
    expect(externalAll).not.toContain('intl');
  });

  it('lists every group to administrators unless all_available=false', async () => {
    const all = await listPaths('/api/v4/groups', admin, { per_page: 100 });
    expect(all).toEqual(expect.arrayContaining(['secret', 'pub/private-sub/deep', 'intl']));
    expect(await listPaths('/api/v4/groups', admin, { all_available: false, per_page: 100 })).toEqual([]);
  });

  it('gives owned and min_access_level precedence over all_available', async () => {
    const owned = await listPaths('/api/v4/groups', maintainer, { owned: true, all_available: true });
    expect(owned).toEqual(['pub/maint-sub']);
    const maintained = await listPaths('/api/v4/groups', developer, { min_access_level: 30, all_available: true, per_page: 100 });
    expect(maintained).toEqual(expect.arrayContaining(['pub', 'pub/private-sub', 'pub/private-sub/deep']));
    expect(maintained).not.toContain('intl');
    expect(await listPaths('/api/v4/groups', developer, { min_access_level: 40 })).toEqual([]);
  });

  it('searches, orders, sorts, skips and keeps to top-level groups', async () => {
    expect(await listPaths('/api/v4/groups', owner, { search: 'SUB', order_by: 'path', per_page: 100 })).toEqual([
      'pub/internal-sub',
      'pub/maint-sub',
      'pub/private-sub',
    ]);
    const byName = await listPaths('/api/v4/groups', owner, { top_level_only: true, per_page: 100 });
    expect(byName.slice(0, 2)).toEqual(['fresh', 'intl']);
    const byPathDesc = await listPaths('/api/v4/groups', owner, { top_level_only: true, order_by: 'path', sort: 'desc', per_page: 100 });
    expect(byPathDesc[byPathDesc.length - 1]).toBe('aardvark');
    const byNameLast = byName[byName.length - 1];
    expect(byNameLast).toBe('aardvark');
    const byId = await listPaths('/api/v4/groups', owner, { order_by: 'id', per_page: 3 });
    expect(byId).toEqual(['pub', 'pub/internal-sub', 'pub/private-sub']);
    const skipped = await listPaths('/api/v4/groups', owner, { order_by: 'id', per_page: 3, skip_groups: [ids['pub/internal-sub']] });
    expect(skipped).toEqual(['pub', 'pub/private-sub', 'pub/private-sub/deep']);
  });

  it('shows statistics and custom attributes to administrators only, and filters by custom attributes', async () => {
    const set = await kit.api.put(`/api/v4/groups/${ids.intl}/custom_attributes/tier`).set(kit.as(admin)).send({ value: 'gold' });
    expect(set.body).toEqual({ key: 'tier', value: 'gold' });
    expect((await kit.api.put(`/api/v4/groups/${ids.intl}/custom_attributes/tier`).set(kit.as(owner)).send({ value: 'x' })).status).toBe(
      403,
    );

    const asAdmin = await kit.api
      .get('/api/v4/groups')
      .query({ statistics: true, with_custom_attributes: true, 'custom_attributes[tier]': 'gold' })
      .set(kit.as(admin));
    expect(asAdmin.body).toHaveLength(1);
    expect(asAdmin.body[0]).toMatchObject({
      full_path: 'intl',
      custom_attributes: [{ key: 'tier', value: 'gold' }],
      statistics: {
        storage_size: 0,
        repository_size: 0,
        wiki_size: 0,
        lfs_objects_size: 0,
        job_artifacts_size: 0,
        packages_size: 0,
        snippets_size: 0,
      },
    });
    const asOwner = await kit.api
      .get('/api/v4/groups')
      .query({ statistics: true, with_custom_attributes: true, 'custom_attributes[tier]': 'gold' })
      .set(kit.as(owner));
    expect(asOwner.body.length).toBeGreaterThan(1);
    expect(asOwner.body[0]).not.toHaveProperty('statistics');
    expect(asOwner.body[0]).not.toHaveProperty('custom_attributes');
  });

  it('paginates with GitLab headers', async () => {
    const response = await kit.api.get('/api/v4/groups').query({ per_page: 2, page: 2, order_by: 'id' }).set(kit.as(admin));
    expect(response.body).toHaveLength(2);
    const total = Number(response.headers['x-total']);
    expect(total).toBeGreaterThan(4);
    expect(response.headers).toMatchObject({
      'x-page': '2',
      'x-per-page': '2',
      'x-prev-page': '1',
      'x-next-page': '3',
      'x-total-pages': String(Math.ceil(total / 2)),
    });
    expect(response.headers.link).toContain('rel="next"');
  });

  it('answers 400 for invalid parameters', async () => {
    expect((await kit.api.get('/api/v4/groups').query({ order_by: 'size' }).set(kit.as(owner))).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await kit.api.get('/api/v4/groups').query({ min_access_level: 15 }).set(kit.as(owner))).body).toEqual({
      error: 'min_access_level does not have a valid value',
    });
    expect((await kit.api.get('/api/v4/groups').query({ skip_groups: 'a,b' }).set(kit.as(owner))).status).toBe(400);
  });
});

describe('GET /groups/:id/subgroups and /descendant_groups', () => {
  it('lists direct subgroups, or all descendants, that the caller may see', async () => {
    expect(await listPaths('/api/v4/groups/pub/subgroups', owner, { order_by: 'path' })).toEqual([
      'pub/internal-sub',
      'pub/maint-sub',
      'pub/private-sub',
    ]);
    // `path` is the group's own path, not its full path.
    expect(await listPaths('/api/v4/groups/pub/descendant_groups', owner, { order_by: 'path' })).toEqual([
      'pub/private-sub/deep',
      'pub/internal-sub',
      'pub/maint-sub',
      'pub/private-sub',
    ]);
    expect(await listPaths('/api/v4/groups/pub/descendant_groups', anonymous)).toEqual([]);
    expect(await listPaths('/api/v4/groups/pub/descendant_groups', outsider, { all_available: true })).toEqual(['pub/internal-sub']);
    expect(await listPaths('/api/v4/groups/pub/subgroups', owner, { search: 'priv' })).toEqual(['pub/private-sub']);
  });

  it('answers 404 for a group the caller may not see', async () => {
    expect((await kit.api.get('/api/v4/groups/secret/subgroups').set(kit.as(outsider))).status).toBe(404);
  });
});

describe('PUT /groups/:id', () => {
  it('lets owners change settings, recording identity.group.updated', async () => {
    const response = await kit.api.put('/api/v4/groups/intl').set(kit.as(owner)).send({ description: 'changed', lfs_enabled: false });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ description: 'changed', lfs_enabled: false });
    expect(await outboxTypes(ids.intl as number)).toEqual(['identity.group.created', 'identity.group.updated']);
  });

  it('moves descendants along when the path changes', async () => {
    const response = await kit.api.put(`/api/v4/groups/${ids['pub/private-sub']}`).set(kit.as(owner)).send({ path: 'hidden' });
    expect(response.body.full_path).toBe('pub/hidden');
    const deep = await kit.api.get(`/api/v4/groups/${ids['pub/private-sub/deep']}`).set(kit.as(owner));
    expect(deep.body.full_path).toBe('pub/hidden/deep');
    expect((await kit.api.get('/api/v4/groups/pub%2Fhidden%2Fdeep').set(kit.as(owner))).status).toBe(200);
    await kit.api.put(`/api/v4/groups/${ids['pub/private-sub']}`).set(kit.as(owner)).send({ path: 'private-sub' });
  });

  it('refuses to make a group less visible than what it contains', async () => {
    const response = await kit.api.put('/api/v4/groups/pub').set(kit.as(owner)).send({ visibility: 'private' });
    expect(response.status).toBe(400);
    expect(response.body.message.visibility_level[0]).toMatch(/higher visibility/);
  });

  it('is for owners: 403 for maintainers, 404 where the group is invisible, 401 anonymously', async () => {
    expect((await kit.api.put('/api/v4/groups/pub').set(kit.as(maintainer)).send({ description: 'x' })).status).toBe(403);
    expect((await kit.api.put('/api/v4/groups/secret').set(kit.as(outsider)).send({ description: 'x' })).status).toBe(404);
    expect((await kit.api.put('/api/v4/groups/pub').set(kit.as(anonymous)).send({ description: 'x' })).status).toBe(401);
  });
});

describe('POST /groups/:id/share', () => {
  it('shares a group with another, whose members then get access up to the share level', async () => {
    const team = await createGroup(outsider, { name: 'Team', path: 'team', visibility: 'private' });
    expect((await kit.api.get('/api/v4/groups/secret').set(kit.as(outsider))).status).toBe(404);
    const shared = await kit.api.post('/api/v4/groups/secret/share').set(kit.as(owner)).send({ group_id: team.id, group_access: 20 });
    expect(shared.status).toBe(404);
    await kit.api.post(`/api/v4/groups/${team.id}/members`).set(kit.as(outsider)).send({ user_id: owner.userId, access_level: 10 });

    const response = await kit.api
      .post('/api/v4/groups/secret/share')
      .set(kit.as(owner))
      .send({ group_id: team.id, group_access: 20, expires_at: '2999-01-01' });
    expect(response.status).toBe(201);
    expect(response.body.shared_with_groups).toEqual([
      { group_id: team.id, group_name: 'Team', group_full_path: 'team', group_access_level: 20, expires_at: '2999-01-01' },
    ]);
    const asOutsider = await kit.api.get('/api/v4/groups/secret').set(kit.as(outsider));
    expect(asOutsider.status).toBe(200);
    expect(await listPaths('/api/v4/groups', outsider, { min_access_level: 20, per_page: 100 })).toContain('secret');
    expect(await listPaths('/api/v4/groups', outsider, { min_access_level: 30, per_page: 100 })).not.toContain('secret');
    expect(
      (await kit.api.post('/api/v4/groups/secret/share').set(kit.as(owner)).send({ group_id: team.id, group_access: 20 })).status,
    ).toBe(409);

    expect((await kit.api.delete(`/api/v4/groups/secret/share/${team.id}`).set(kit.as(owner))).status).toBe(204);
    expect((await kit.api.get('/api/v4/groups/secret').set(kit.as(outsider))).status).toBe(404);
    expect((await kit.api.delete(`/api/v4/groups/secret/share/${team.id}`).set(kit.as(owner))).body).toEqual({
      message: '404 Group Link Not Found',
    });
  });
});

describe('DELETE /groups/:id', () => {
  it('deletes a group with its subgroups and projects; owners only', async () => {
    const doomed = await createGroup(owner, { name: 'Doomed', path: 'doomed', visibility: 'public' });
    const child = await createGroup(owner, { name: 'Child', path: 'child', parent_id: doomed.id, visibility: 'public' });
    const project = await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Gone', namespace_id: child.id });
    await addMember(doomed.id, maintainer, 40);
    expect((await kit.api.delete('/api/v4/groups/doomed').set(kit.as(maintainer))).status).toBe(403);
    const response = await kit.api.delete('/api/v4/groups/doomed').set(kit.as(owner));
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: '202 Accepted' });
    expect((await kit.api.get('/api/v4/groups/doomed').set(kit.as(admin))).status).toBe(404);
    expect((await kit.api.get(`/api/v4/groups/${child.id}`).set(kit.as(admin))).status).toBe(404);
    expect((await kit.api.get(`/api/v4/projects/${project.body.id}`).set(kit.as(admin))).status).toBe(404);
    expect(await outboxTypes(child.id)).toEqual(['identity.group.created', 'identity.group.deleted']);
  });
});

describe('token scopes on groups', () => {
  const scoped = (caller: UserCaller, scopes: string[]) => kit.as({ ...caller, scopes });

  it('refuses a read_user token any group, and a read_api token any change', async () => {
    const group = await createGroup(owner, { name: 'Scoped', path: 'scoped', visibility: 'public' });
    const asReadUser = await kit.api.get(`/api/v4/groups/${group.id}`).set(scoped(owner, ['read_user']));
    expect(asReadUser.status).toBe(403);
    expect(asReadUser.body).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
    expect((await kit.api.get(`/api/v4/groups/${group.id}`).set(scoped(owner, ['read_api']))).status).toBe(200);
    const update = await kit.api
      .put(`/api/v4/groups/${group.id}`)
      .set(scoped(owner, ['read_api']))
      .send({ description: 'changed' });
    expect(update.status).toBe(403);
    expect(update.body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
    expect((await kit.api.delete(`/api/v4/groups/${group.id}`).set(scoped(owner, ['read_repository']))).status).toBe(403);
    expect((await kit.api.get(`/api/v4/groups/${group.id}`).set(kit.as(owner))).body.description).toBe('');
  });
});
