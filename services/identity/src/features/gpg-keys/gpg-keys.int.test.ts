/** GPG keys against real PostgreSQL: parsing with OpenPGP.js, ownership, administrators and events. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKey, readKey } from 'openpgp';
import { GpgKeyAdded, GpgKeyRemoved } from '@platform/proto/identity/v1/events';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
let owner: { id: number; username: string };
let asOwner: Record<string, string>;
const admin = callerHeader(adminCaller());
const anonymous = callerHeader({ kind: 'anonymous' });

async function armoredPublicKey(): Promise<string> {
  const { publicKey } = await generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ name: 'Owner', email: 'gpg-owner@example.com' }],
    format: 'armored',
  });
  return publicKey;
}

beforeAll(async () => {
  harness = await startIdentityHarness('gpg_keys');
  owner = await harness.createUser('gpg-owner');
  asOwner = callerHeader(userCaller(owner.id, owner.username));
});

afterAll(async () => {
  await harness?.stop();
});

describe('GPG keys of the current user', () => {
  it('starts empty, then lists the keys added, storing the primary key id', async () => {
    const empty = await harness.api.get('/api/v4/user/gpg_keys').set(asOwner);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect(empty.headers['x-total']).toBe('0');

    const armored = await armoredPublicKey();
    const added = await harness.api.post('/api/v4/user/gpg_keys').set(asOwner).send({ key: armored });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), key: armored.trim(), created_at: expect.any(String) });
    const parsed = await readKey({ armoredKey: armored });
    const [row] = await harness.sql<{ primary_keyid: string }>('select primary_keyid from gpg_keys where id = $1', [added.body.id]);
    expect(row?.primary_keyid).toBe(parsed.getKeyID().toHex().toUpperCase());

    const listed = await harness.api.get('/api/v4/user/gpg_keys').set(asOwner);
    expect(listed.body).toEqual([added.body]);
    expect((await harness.api.get(`/api/v4/user/gpg_keys/${added.body.id}`).set(asOwner)).body).toEqual(added.body);
    const event = (await harness.outboxEvents('identity.gpg_key.added')).find(
      (candidate) => GpgKeyAdded.fromJSON(candidate.data).key?.id === added.body.id,
    );
    expect(GpgKeyAdded.fromJSON(event?.data).key?.fingerprint).toBe(parsed.getFingerprint().toUpperCase());
  });

  it('refuses a malformed key, a private key and a key already added', async () => {
    const malformed = await harness.api.post('/api/v4/user/gpg_keys').set(asOwner).send({ key: 'not a key' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message.key[0]).toMatch(
      /^is invalid\. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----'/,
    );
    const broken = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----';
    expect((await harness.api.post('/api/v4/user/gpg_keys').set(asOwner).send({ key: broken })).body).toEqual({
      message: { key: ['is invalid'] },
    });
    const armored = await armoredPublicKey();
    expect((await harness.api.post('/api/v4/user/gpg_keys').set(asOwner).send({ key: armored })).status).toBe(201);
    const again = await harness.api.post(`/api/v4/users/${owner.id}/gpg_keys`).set(admin).send({ key: armored });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
    expect((await harness.api.post('/api/v4/user/gpg_keys').set(asOwner).send({})).body).toEqual({ error: 'key is missing' });
    expect(
      (
        await harness.api
          .post('/api/v4/user/gpg_keys')
          .set(asOwner)
          .send({ key: 'k'.repeat(100_001) })
      ).status,
    ).toBe(400);
  });

  it("hides other users' keys and deletes one's own", async () => {
    const other = await harness.createUser('gpg-other');
    const asOther = callerHeader(userCaller(other.id, other.username));
    const added = await harness.api
      .post('/api/v4/user/gpg_keys')
      .set(asOther)
      .send({ key: await armoredPublicKey() });
    const foreign = await harness.api.get(`/api/v4/user/gpg_keys/${added.body.id}`).set(asOwner);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: '404 GPG Key Not Found' });
    expect((await harness.api.delete(`/api/v4/user/gpg_keys/${added.body.id}`).set(asOwner)).status).toBe(404);
    expect((await harness.api.delete(`/api/v4/user/gpg_keys/${added.body.id}`).set(asOther)).status).toBe(204);
    expect((await harness.api.get('/api/v4/user/gpg_keys').set(asOther)).body).toEqual([]);
    const removed = (await harness.outboxEvents('identity.gpg_key.removed')).map((event) => GpgKeyRemoved.fromJSON(event.data));
    expect(removed).toContainEqual(expect.objectContaining({ user: expect.objectContaining({ id: other.id }) }));
    expect((await harness.api.get('/api/v4/user/gpg_keys').set(anonymous)).status).toBe(401);
  });
});

describe('GPG keys of any user', () => {
  it('lists them to anybody and lets administrators add and delete them', async () => {
    const user = await harness.createUser('gpg-managed');
    const asUser = callerHeader(userCaller(user.id, user.username));
    expect(
      (
        await harness.api
          .post(`/api/v4/users/${user.id}/gpg_keys`)
          .set(asUser)
          .send({ key: await armoredPublicKey() })
      ).status,
    ).toBe(403);
    const added = await harness.api
      .post(`/api/v4/users/${user.id}/gpg_keys`)
      .set(admin)
      .send({ key: await armoredPublicKey() });
    expect(added.status).toBe(201);
    const listed = await harness.api.get(`/api/v4/users/${user.id}/gpg_keys`).set(anonymous);
    expect(listed.body.map((key: { id: number }) => key.id)).toEqual([added.body.id]);
    expect((await harness.api.get(`/api/v4/users/${user.id}/gpg_keys/${added.body.id}`).set(asOwner)).body.id).toBe(added.body.id);
    expect((await harness.api.delete(`/api/v4/users/${user.id}/gpg_keys/${added.body.id}`).set(asUser)).status).toBe(403);
    expect((await harness.api.delete(`/api/v4/users/${user.id}/gpg_keys/${added.body.id}`).set(admin)).status).toBe(204);
    expect((await harness.api.get('/api/v4/users/999999/gpg_keys').set(admin)).body).toEqual({ message: '404 User Not Found' });
  });
});
