/**
 * The Users area through the real gateway: keys and blocking reach the audit log through Kafka,
 * and a blocked user's token stops working.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  platform = await startTestPlatform({ authCacheTtlMs: 0, services: ['identity', 'audit'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

/** A fresh ed25519 public key in OpenSSH's one-line format. */
function openSshPublicKey(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')} e2e@test`;
}

async function auditEventsOf(userId: number, eventName: string) {
  return waitFor(
    async () => {
      const response = await gateway.get(`/api/v4/audit_events?entity_type=User&entity_id=${userId}`).set(asRoot);
      const found = (response.body as Array<{ event_name: string }>).filter((event) => event.event_name === eventName);
      return found.length > 0 ? found : undefined;
    },
    { what: `the ${eventName} audit event` },
  );
}

describe('the Users area end to end', () => {
  it('records an administrator adding an SSH key for a user as an audit event', async () => {
    const user = await gateway
      .post('/api/v4/users')
      .set(asRoot)
      .send({ email: 'keys@example.com', name: 'Key Holder', username: 'e2e-keys', password: 'a-long-enough-password' });
    const key = await gateway.post(`/api/v4/users/${user.body.id}/keys`).set(asRoot).send({ title: 'laptop', key: openSshPublicKey() });
    expect(key.status).toBe(201);
    const [event] = await auditEventsOf(user.body.id, 'add_ssh_key');
    expect(event).toMatchObject({ author_id: 1, entity_type: 'User', details: { add: 'SSH key', entity_path: 'e2e-keys' } });
  });

  it("stops a blocked user's token at the gateway", async () => {
    const user = await gateway
      .post('/api/v4/users')
      .set(asRoot)
      .send({ email: 'blocked@example.com', name: 'Blocked', username: 'e2e-blocked', password: 'a-long-enough-password' });
    const token = await gateway
      .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 't', scopes: ['api'] });
    expect((await gateway.get('/api/v4/user').set('PRIVATE-TOKEN', token.body.token)).status).toBe(200);
    expect((await gateway.post(`/api/v4/users/${user.body.id}/block`).set(asRoot)).status).toBe(201);
    const refused = await gateway.get('/api/v4/user').set('PRIVATE-TOKEN', token.body.token);
    expect(refused.status).toBe(403);
    expect((await gateway.get(`/api/v4/users/${user.body.id}`).set(asRoot)).body.state).toBe('blocked');
    await auditEventsOf(user.body.id, 'user_blocked');
  });
});
