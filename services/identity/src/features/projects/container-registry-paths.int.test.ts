/**
 * Moves of project paths while the packages service, which knows the container registry's tags,
 * cannot be asked (against real PostgreSQL and Kafka): refused with 503, nothing moved. The
 * refusals for tagged projects, with a real registry, are in the end-to-end test.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
let owner: Caller;
const ids: Record<string, number> = {};

async function create(path: string, body: Record<string, unknown>) {
  const response = await kit.api.post(path).set(kit.as(owner)).send(body);
  if (response.status !== 201) throw new Error(`creating ${String(body.path)}: ${response.status} ${JSON.stringify(response.body)}`);
  ids[body.path as string] = response.body.id as number;
}

beforeAll(async () => {
  // Nothing listens there: every question to the packages service fails to connect.
  kit = await startIdentityHarness('registry-paths', { PACKAGES_GRPC_ADDRESS: '127.0.0.1:1' });
  owner = await kit.createCaller('rpowner');
  await create('/api/v4/groups', { name: 'Docks', path: 'docks', visibility: 'public' });
  await create('/api/v4/groups', { name: 'Quay', path: 'quay', visibility: 'public' });
  await create('/api/v4/projects', { name: 'Crane', path: 'crane', namespace_id: ids.docks });
});

afterAll(async () => {
  await kit?.stop();
});

describe('moving paths while the packages service cannot answer', () => {
  it('refuses with 503 rather than risk leaving images under a path no project has', async () => {
    const unavailable = { message: '503 Service Unavailable' };
    const transfer = await kit.api.put(`/api/v4/projects/${ids.crane}/transfer`).set(kit.as(owner)).send({ namespace: ids.quay });
    expect({ status: transfer.status, body: transfer.body }).toEqual({ status: 503, body: unavailable });
    const rename = await kit.api.put(`/api/v4/projects/${ids.crane}`).set(kit.as(owner)).send({ path: 'lift' });
    expect({ status: rename.status, body: rename.body }).toEqual({ status: 503, body: unavailable });
    const groupTransfer = await kit.api.post(`/api/v4/groups/${ids.docks}/transfer`).set(kit.as(owner)).send({ group_id: ids.quay });
    expect(groupTransfer.status).toBe(503);
    const groupRename = await kit.api.put(`/api/v4/groups/${ids.docks}`).set(kit.as(owner)).send({ path: 'wharf' });
    expect(groupRename.status).toBe(503);

    const project = await kit.api.get(`/api/v4/projects/${ids.crane}`).set(kit.as(owner));
    expect(project.body.path_with_namespace).toBe('docks/crane');
    // What moves no path needs no answer.
    const renamed = await kit.api.put(`/api/v4/projects/${ids.crane}`).set(kit.as(owner)).send({ name: 'Big Crane' });
    expect(renamed.status).toBe(200);
  });
});
