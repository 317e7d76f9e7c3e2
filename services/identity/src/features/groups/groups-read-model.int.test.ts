/** The groups' read path against real PostgreSQL: GETs answer from the read model, without entities. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminCaller, countHydrations } from '@platform/testing';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
const admin = adminCaller();
let owner: Caller;
let outsider: Caller;
const ids: Record<string, number> = {};

async function createGroup(caller: Caller, body: Record<string, unknown>) {
  const response = await kit.api.post('/api/v4/groups').set(kit.as(caller)).send(body);
  if (response.status !== 201) throw new Error(`creating group: ${response.status} ${JSON.stringify(response.body)}`);
  ids[response.body.full_path as string] = response.body.id as number;
}

beforeAll(async () => {
  kit = await startIdentityHarness('groups-read-model');
  owner = await kit.createCaller('rm-owner');
  outsider = await kit.createCaller('rm-outsider');
  await createGroup(owner, { name: 'Read Top', path: 'rm-top', visibility: 'public' });
  await createGroup(owner, { name: 'Read Sub', path: 'sub', parent_id: ids['rm-top'], visibility: 'private' });
  await createGroup(owner, { name: 'Read Shared', path: 'rm-shared', visibility: 'internal' });
  await kit.api.post(`/api/v4/groups/${ids['rm-top/sub']}/share`).set(kit.as(owner)).send({ group_id: ids['rm-shared'], group_access: 30 });
  await kit.api.put(`/api/v4/groups/${ids['rm-top/sub']}/custom_attributes/tier`).set(kit.as(admin)).send({ value: 'gold' });
});

afterAll(async () => {
  await kit?.stop();
});

describe('the groups read path', () => {
  it('answers GET /groups and GET /groups/:id without hydrating a single entity', async () => {
    const requests: Array<[Caller, string]> = [
      [admin, '/api/v4/groups?per_page=20&statistics=true&with_custom_attributes=true'],
      [owner, '/api/v4/groups?per_page=20'],
      [outsider, '/api/v4/groups?per_page=20&all_available=true&search=read'],
      [{ kind: 'anonymous' }, '/api/v4/groups?per_page=20'],
      [owner, '/api/v4/groups?pagination=keyset&per_page=1'],
      [owner, '/api/v4/groups?min_access_level=50'],
      [admin, `/api/v4/groups/${ids['rm-top/sub']}?with_custom_attributes=true`],
      [owner, '/api/v4/groups/rm-top%2Fsub'],
      [outsider, `/api/v4/groups/${ids['rm-top']}`],
      [{ kind: 'anonymous' }, `/api/v4/groups/${ids['rm-top']}?with_projects=false`],
    ];
    const statuses: number[] = [];
    const hydrations = await countHydrations(async () => {
      for (const [caller, path] of requests) statuses.push((await kit.api.get(path).set(kit.as(caller))).status);
    });
    expect(statuses).toEqual(requests.map(() => 200));
    expect(hydrations).toBe(0);
  });

  it('nests the full name, the visible shares and the custom attributes in the group read', async () => {
    const response = await kit.api.get(`/api/v4/groups/${ids['rm-top/sub']}?with_custom_attributes=true`).set(kit.as(admin));
    expect(response.body).toMatchObject({
      full_name: 'Read Top / Read Sub',
      full_path: 'rm-top/sub',
      custom_attributes: [{ key: 'tier', value: 'gold' }],
      shared_with_groups: [
        { group_id: ids['rm-shared'], group_name: 'Read Shared', group_full_path: 'rm-shared', group_access_level: 30, expires_at: null },
      ],
    });
    expect(response.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof response.body.runners_token).toBe('string');
    const forOutsider = await kit.api.get(`/api/v4/groups/${ids['rm-top/sub']}`).set(kit.as(outsider));
    expect(forOutsider.status).toBe(404);
  });
});
