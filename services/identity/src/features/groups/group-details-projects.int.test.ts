/**
 * Group details embed the group's projects (`projects`, `shared_projects`) read in the group's own
 * statement: each is, byte for byte, what the group's project lists answer the same caller for
 * the newest 100, and the request sends no statement beyond the viewer's and the group's.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { adminCaller, recordStatements } from '@platform/testing';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
const admin = adminCaller();
const anonymous: Caller = { kind: 'anonymous' };
let owner: Caller;
let developer: Caller & { kind: 'user' };
let outsider: Caller;
let groupId: number;

/** What the service does beside requests: its job runner's and outbox relay's polls, and the list counts' fold. */
const BACKGROUND = /background_jobs|outbox|pg_locks|advisory|delete from list_counts/;

async function created(caller: Caller, path: string, body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await kit.api.post(path).set(kit.as(caller)).send(body);
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

beforeAll(async () => {
  kit = await startIdentityHarness('group-details-projects');
  owner = await kit.createCaller('gdp-owner');
  developer = (await kit.createCaller('gdp-developer')) as Caller & { kind: 'user' };
  outsider = await kit.createCaller('gdp-outsider');
  const group = await created(owner, '/api/v4/groups', { name: 'Details', path: 'gdp', visibility: 'public' });
  groupId = group.id;
  await created(owner, `/api/v4/groups/${groupId}/members`, { user_id: developer.userId, access_level: 30 });
  const inner = await created(owner, '/api/v4/groups', { name: 'Inner', path: 'inner', parent_id: groupId, visibility: 'public' });
  const lender = await created(owner, '/api/v4/groups', { name: 'Lender', path: 'gdp-lender', visibility: 'private' });

  const open = await created(owner, '/api/v4/projects', {
    name: 'Open',
    namespace_id: groupId,
    visibility: 'public',
    description: 'an "open" project',
    topics: ['alpha', 'beta'],
    container_expiration_policy_attributes: { cadence: '1d', enabled: true, keep_n: 10, older_than: '7d', name_regex: '.*' },
  });
  await created(owner, `/api/v4/projects/${open.id}/share`, { group_id: lender.id, group_access: 30 });
  await created(owner, '/api/v4/projects', { name: 'Closed', namespace_id: groupId, visibility: 'private' });
  await created(owner, '/api/v4/projects', { name: 'Inside', namespace_id: groupId, visibility: 'internal' });
  const archived = await created(owner, '/api/v4/projects', { name: 'Old', namespace_id: groupId, visibility: 'public' });
  await created(owner, `/api/v4/projects/${archived.id}/archive`, {});
  const source = await created(owner, '/api/v4/projects', { name: 'Source', namespace_id: lender.id, visibility: 'private' });
  await created(owner, `/api/v4/projects/${source.id}/fork`, { namespace_id: groupId });
  await created(owner, '/api/v4/projects', { name: 'Deeper', namespace_id: inner.id, visibility: 'public' });

  const lent = await created(owner, '/api/v4/projects', { name: 'Lent', namespace_id: lender.id, visibility: 'private' });
  await created(owner, `/api/v4/projects/${lent.id}/share`, { group_id: groupId, group_access: 30 });
  const personal = await created(owner, '/api/v4/projects', { name: 'Mine', visibility: 'public' });
  await created(owner, `/api/v4/projects/${personal.id}/share`, { group_id: groupId, group_access: 20 });
}, 60_000);

afterAll(async () => {
  await kit?.stop();
});

it.each([
  ['an administrator', () => admin, 5, 2],
  ['the owner', () => owner, 5, 2],
  ['a developer, who sees neither the fork source nor the group it is shared with', () => developer, 5, 2],
  ['an outsider', () => outsider, 3, 1],
  ['an anonymous caller', () => anonymous, 2, 1],
])("embeds for %s the group's own and shared projects as its project lists show them", async (_who, caller, own, shared) => {
  const details = await kit.api.get(`/api/v4/groups/${groupId}`).set(kit.as(caller()));
  expect(details.status).toBe(200);
  const list = (path: string) => kit.api.get(path).query({ order_by: 'id', sort: 'desc', per_page: 100 }).set(kit.as(caller())).expect(200);
  const ownList = await list(`/api/v4/groups/${groupId}/projects?with_shared=false`);
  const sharedList = await list(`/api/v4/groups/${groupId}/projects/shared`);
  expect(details.body.projects).toHaveLength(own);
  expect(details.body.shared_projects).toHaveLength(shared);
  expect(JSON.stringify(details.body.projects)).toBe(ownList.text);
  expect(JSON.stringify(details.body.shared_projects)).toBe(sharedList.text);
});

it("sends the viewer's statement and the group's, the projects read in the group's", async () => {
  const sent = await recordStatements(() => kit.api.get(`/api/v4/groups/${groupId}`).set(kit.as(developer)).expect(200));
  const statements = sent.filter((statement) => !BACKGROUND.test(statement.text));
  expect(statements).toHaveLength(2);
  expect(statements[0]!.text).toMatch(/from users where/);
  expect(statements[1]!.text).toMatch(/from namespaces n where/);
  expect(statements[1]!.text).toMatch(/from projects p where/);
});
