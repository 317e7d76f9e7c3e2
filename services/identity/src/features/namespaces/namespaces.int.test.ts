/** Namespaces against real PostgreSQL: whether a path is taken, and the free path GitLab suggests. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
let asUser: Record<string, string>;
const admin = callerHeader(adminCaller());

async function createGroup(body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await harness.api.post('/api/v4/groups').set(admin).send(body);
  if (response.status !== 201) throw new Error(`group: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

beforeAll(async () => {
  harness = await startIdentityHarness('namespaces');
  const user = await harness.createUser('ns-user');
  asUser = callerHeader(userCaller(user.id, user.username));
});

afterAll(async () => {
  await harness?.stop();
});

describe('GET /namespaces/:id/exists', () => {
  it('says whether a top-level path is taken, suggesting the first free numbered path', async () => {
    const taken = await createGroup({ name: 'Taken', path: 'taken' });
    await createGroup({ name: 'Taken1', path: 'taken-one' });
    const answer = await harness.api.get('/api/v4/namespaces/taken/exists').set(asUser);
    expect([answer.status, answer.body]).toEqual([200, { exists: true, suggests: ['taken2'] }]);
    expect((await harness.api.get('/api/v4/namespaces/TAKEN/exists').set(asUser)).body).toEqual({ exists: true, suggests: ['TAKEN2'] });
    expect((await harness.api.get('/api/v4/namespaces/free-path/exists').set(asUser)).body).toEqual({ exists: false, suggests: [] });
    // A user's namespace takes the username's path.
    expect((await harness.api.get('/api/v4/namespaces/ns-user/exists').set(asUser)).body).toEqual({ exists: true, suggests: ['ns-user1'] });
    // Under a parent, only its subgroups count; the top level is not looked at.
    await createGroup({ name: 'Child', path: 'child', parent_id: taken.id });
    const child = await harness.api.get('/api/v4/namespaces/child/exists').query({ parent_id: taken.id }).set(asUser);
    expect(child.body).toEqual({ exists: true, suggests: ['child1'] });
    expect((await harness.api.get('/api/v4/namespaces/taken/exists').query({ parent_id: taken.id }).set(asUser)).body).toEqual({
      exists: false,
      suggests: [],
    });
    expect((await harness.api.get('/api/v4/namespaces/child/exists').set(asUser)).body).toEqual({ exists: false, suggests: [] });
  });

  it('needs a signed-in user and an integer parent_id', async () => {
    expect((await harness.api.get('/api/v4/namespaces/taken/exists').set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);
    const malformed = await harness.api.get('/api/v4/namespaces/taken/exists').query({ parent_id: 'abc' }).set(asUser);
    expect([malformed.status, malformed.body]).toEqual([400, { error: 'parent_id is invalid' }]);
  });
});
