/** SSH keys against real PostgreSQL: own keys, other users' keys, administrators, fingerprints and events. */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sshpk from 'sshpk';
import { SshKeyAdded, SshKeyRemoved } from '@platform/proto/identity/v1/events';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
let owner: { id: number; username: string };
let other: { id: number; username: string };
let asOwner: Record<string, string>;
let asOther: Record<string, string>;
const admin = callerHeader(adminCaller());
const anonymous = callerHeader({ kind: 'anonymous' });

function publicKeyLine(comment = 'owner@laptop'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  key.comment = comment;
  return key.toString('ssh');
}

beforeAll(async () => {
  harness = await startIdentityHarness('ssh_keys');
  owner = await harness.createUser('key-owner', { name: 'Key Owner' });
  other = await harness.createUser('key-other');
  asOwner = callerHeader(userCaller(owner.id, owner.username));
  asOther = callerHeader(userCaller(other.id, other.username));
});

afterAll(async () => {
  await harness?.stop();
});

describe('POST /user/keys', () => {
  it('adds a key, answering 201 with the comment replaced by owner and host', async () => {
    const line = publicKeyLine('secret-mail@example.com');
    const response = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'Laptop', key: line, expires_at: '2099-01-01T00:00:00Z' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      title: 'Laptop',
      created_at: expect.any(String),
      expires_at: '2099-01-01T00:00:00.000Z',
      key: `${line.split(' ').slice(0, 2).join(' ')} Key Owner (platform.test)`,
      usage_type: 'auth_and_signing',
    });
    const [row] = await harness.sql<{ fingerprint_sha256: string }>('select fingerprint_sha256 from ssh_keys where id = $1', [
      response.body.id,
    ]);
    expect(row?.fingerprint_sha256).toBe(sshpk.parseKey(line, 'ssh').fingerprint('sha256').toString().replace('SHA256:', ''));
    const event = (await harness.outboxEvents('identity.ssh_key.added')).find(
      (candidate) => SshKeyAdded.fromJSON(candidate.data).key?.id === response.body.id,
    );
    expect(SshKeyAdded.fromJSON(event?.data)).toMatchObject({
      user: { id: owner.id },
      key: { title: 'Laptop', usageType: 'auth_and_signing' },
    });
    expect(event?.actor).toMatchObject({ id: owner.id });
  });

  it('refuses a key anybody already uses, by fingerprint', async () => {
    const line = publicKeyLine();
    expect((await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: 'first', key: line })).status).toBe(201);
    // The same key with another comment is the same key.
    const reused = line.replace(/ \S+$/, ' someone@else');
    const response = await harness.api.post('/api/v4/user/keys').set(asOther).send({ title: 'copy', key: reused });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
  });

  it('refuses malformed keys, blank titles and expiry dates in the past field by field', async () => {
    const malformed = await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: 'bad', key: 'ssh-rsa not-base64!' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: { key: ['is invalid'] } });
    const privateKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect((await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: 'private', key: privateKey })).body).toEqual({
      message: { key: ['should be a single line'] },
    });
    const blank = await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: '', key: publicKeyLine() });
    expect(blank.body).toEqual({ message: { title: ["can't be blank"] } });
    const expired = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'old', key: publicKeyLine(), expires_at: '2020-01-01' });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ message: { key: ['has expired'] } });
    const long = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 't'.repeat(256), key: publicKeyLine() });
    expect(long.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
  });

  it('names missing, mistyped and unknown parameters', async () => {
    expect((await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: 'x' })).body).toEqual({ error: 'key is missing' });
    expect((await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: 'x', key: 42 })).body).toEqual({
      error: 'key is invalid',
    });
    const usage = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'x', key: publicKeyLine(), usage_type: 'everything' });
    expect(usage.body).toEqual({ error: 'usage_type does not have a valid value' });
    const date = await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: 'x', key: publicKeyLine(), expires_at: 'soon' });
    expect(date.body).toEqual({ error: 'expires_at is invalid' });
    expect(
      (
        await harness.api
          .post('/api/v4/user/keys')
          .set(asOwner)
          .send({ title: 'x', key: 'k'.repeat(20_001) })
      ).status,
    ).toBe(400);
  });

  it('takes a usage type and needs a signed-in user', async () => {
    const response = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'signing', key: publicKeyLine(), usage_type: 'signing' });
    expect(response.body.usage_type).toBe('signing');
    expect((await harness.api.post('/api/v4/user/keys').set(anonymous).send({ title: 'x', key: publicKeyLine() })).status).toBe(401);
  });
});

describe('reading and deleting keys', () => {
  let keyId: number;

  beforeAll(async () => {
    const response = await harness.api.post('/api/v4/user/keys').set(asOther).send({ title: 'Other desktop', key: publicKeyLine() });
    keyId = response.body.id;
  });

  it('lists the current user their own keys, paginated', async () => {
    const response = await harness.api.get('/api/v4/user/keys?per_page=1').set(asOther);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ id: keyId, title: 'Other desktop' })]);
    expect(response.headers['x-total']).toBe('1');
    expect((await harness.api.get('/api/v4/user/keys').set(anonymous)).status).toBe(401);
  });

  it("shows a key to its owner, and 404 for someone else's", async () => {
    expect((await harness.api.get(`/api/v4/user/keys/${keyId}`).set(asOther)).body).toMatchObject({ id: keyId, title: 'Other desktop' });
    const foreign = await harness.api.get(`/api/v4/user/keys/${keyId}`).set(asOwner);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: '404 Key Not Found' });
    expect((await harness.api.get('/api/v4/user/keys/abc').set(asOwner)).status).toBe(400);
  });

  it("lists any user's keys by id or username, to anybody", async () => {
    const byId = await harness.api.get(`/api/v4/users/${other.id}/keys`).set(anonymous);
    expect(byId.status).toBe(200);
    expect(byId.body.map((key: { id: number }) => key.id)).toEqual([keyId]);
    const byUsername = await harness.api.get('/api/v4/users/KEY-OTHER/keys').set(asOwner);
    expect(byUsername.body.map((key: { id: number }) => key.id)).toEqual([keyId]);
    expect((await harness.api.get(`/api/v4/users/${other.id}/keys/${keyId}`).set(asOwner)).body.id).toBe(keyId);
    expect((await harness.api.get(`/api/v4/users/${owner.id}/keys/${keyId}`).set(asOwner)).status).toBe(404);
    const unknown = await harness.api.get('/api/v4/users/nobody-at-all/keys').set(asOwner);
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
    // An id beyond 32 bits names nobody rather than failing in the database.
    expect((await harness.api.get('/api/v4/users/99999999999/keys').set(asOwner)).status).toBe(404);
  });

  it("refuses to delete someone else's key, deletes one's own with 204 and records it", async () => {
    expect((await harness.api.delete(`/api/v4/user/keys/${keyId}`).set(asOwner)).status).toBe(404);
    const deleted = await harness.api.delete(`/api/v4/user/keys/${keyId}`).set(asOther);
    expect(deleted.status).toBe(204);
    expect((await harness.api.get(`/api/v4/user/keys/${keyId}`).set(asOther)).status).toBe(404);
    expect((await harness.api.delete(`/api/v4/user/keys/${keyId}`).set(asOther)).status).toBe(404);
    const removed = (await harness.outboxEvents('identity.ssh_key.removed')).map((event) => SshKeyRemoved.fromJSON(event.data));
    expect(removed).toContainEqual(expect.objectContaining({ key: expect.objectContaining({ id: keyId, title: 'Other desktop' }) }));
  });
});

describe('administrators and other users keys', () => {
  it('lets an administrator add a key to a user, recorded as the administrator', async () => {
    const response = await harness.api
      .post(`/api/v4/users/${owner.id}/keys`)
      .set(admin)
      .send({ title: 'Provisioned', key: publicKeyLine() });
    expect(response.status).toBe(201);
    expect(response.body.key).toMatch(/ Key Owner \(platform\.test\)$/);
    const event = (await harness.outboxEvents('identity.ssh_key.added')).find(
      (candidate) => SshKeyAdded.fromJSON(candidate.data).key?.id === response.body.id,
    );
    expect(event?.actor).toMatchObject({ id: 1, username: 'root' });
    expect(event?.aggregateId).toBe(String(owner.id));
    const listed = await harness.api.get('/api/v4/user/keys?per_page=100').set(asOwner);
    expect(listed.body.map((key: { title: string }) => key.title)).toContain('Provisioned');
  });

  it("lets an administrator delete a user's key", async () => {
    const added = await harness.api.post(`/api/v4/users/${owner.id}/keys`).set(admin).send({ title: 'Temporary', key: publicKeyLine() });
    expect((await harness.api.delete(`/api/v4/users/${other.id}/keys/${added.body.id}`).set(admin)).status).toBe(404);
    expect((await harness.api.delete(`/api/v4/users/${owner.id}/keys/${added.body.id}`).set(admin)).status).toBe(204);
    expect((await harness.api.get(`/api/v4/users/${owner.id}/keys/${added.body.id}`).set(admin)).status).toBe(404);
  });

  it('keeps the administrator endpoints for administrators', async () => {
    const added = await harness.api.post(`/api/v4/users/${other.id}/keys`).set(asOwner).send({ title: 'Sneaky', key: publicKeyLine() });
    expect(added.status).toBe(403);
    expect(
      (await harness.api.post(`/api/v4/users/${other.id}/keys`).set(anonymous).send({ title: 'x', key: publicKeyLine() })).status,
    ).toBe(401);
    expect((await harness.api.delete(`/api/v4/users/${other.id}/keys/1`).set(asOwner)).status).toBe(403);
    const unknown = await harness.api.post('/api/v4/users/999999/keys').set(admin).send({ title: 'x', key: publicKeyLine() });
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
  });

  it("removes a deleted user's keys with them", async () => {
    const leaving = await harness.createUser('key-leaver');
    await harness.api.post(`/api/v4/users/${leaving.id}/keys`).set(admin).send({ title: 'Gone soon', key: publicKeyLine() });
    await harness.api.delete(`/api/v4/users/${leaving.id}?hard_delete=true`).set(admin);
    expect(await harness.sql('select id from ssh_keys where user_id = $1', [leaving.id])).toEqual([]);
  });
});

describe('GET /keys/:id and GET /keys?fingerprint= (administrators)', () => {
  it("finds any user's key by id, MD5 or SHA256 fingerprint, with its owner", async () => {
    const line = publicKeyLine('lookup@laptop');
    const added = await harness.api.post('/api/v4/user/keys').set(asOwner).send({ title: 'Lookup', key: line });
    expect(added.status).toBe(201);
    const parsed = sshpk.parseKey(line, 'ssh');
    const sha256 = parsed.fingerprint('sha256').toString();
    const md5 = parsed.fingerprint('md5').toString().replace(/^MD5:/, '');
    const expected = {
      id: added.body.id,
      title: 'Lookup',
      key: added.body.key,
      usage_type: 'auth_and_signing',
      user: expect.objectContaining({ id: owner.id, username: owner.username, email: expect.any(String), identities: [] }),
    };
    const byId = await harness.api.get(`/api/v4/keys/${added.body.id}`).set(admin);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject(expected);
    for (const fingerprint of [sha256, sha256.replace('SHA256:', 'sha256:'), md5]) {
      const found = await harness.api.get('/api/v4/keys').query({ fingerprint }).set(admin);
      expect([fingerprint, found.status, found.body]).toEqual([fingerprint, 200, expect.objectContaining(expected)]);
    }
  });

  it('answers 404 for unknown keys, 400 for malformed fingerprints, 403 to others', async () => {
    expect((await harness.api.get('/api/v4/keys/999999').set(admin)).body).toEqual({ message: '404 Not Found' });
    expect((await harness.api.get('/api/v4/keys/abc').set(admin)).status).toBe(404);
    const unknown = await harness.api
      .get('/api/v4/keys')
      .query({ fingerprint: `SHA256:${Buffer.alloc(32).toString('base64')}` })
      .set(admin);
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Key Not Found' }]);
    for (const fingerprint of ['SHA256:short', 'ab:cd', 'not a fingerprint']) {
      const malformed = await harness.api.get('/api/v4/keys').query({ fingerprint }).set(admin);
      expect([fingerprint, malformed.status, malformed.body]).toEqual([fingerprint, 400, { message: 'Failed to return the key' }]);
    }
    expect((await harness.api.get('/api/v4/keys').set(admin)).body).toEqual({ error: 'fingerprint is missing' });
    expect((await harness.api.get('/api/v4/keys/1').set(asOwner)).status).toBe(403);
    expect((await harness.api.get('/api/v4/keys').query({ fingerprint: 'x' }).set(asOwner)).status).toBe(403);
    expect((await harness.api.get('/api/v4/keys/1').set(anonymous)).status).toBe(401);
  });
});
