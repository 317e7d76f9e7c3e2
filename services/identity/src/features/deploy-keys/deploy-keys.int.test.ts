/** Deploy keys against real PostgreSQL: project keys, enabling one on another project, can_push, instance keys, refusals, events. */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sshpk from 'sshpk';
import type { AuthenticatedCaller } from '@platform/auth';
import { DeployKeyAdded, DeployKeyRemoved } from '@platform/proto/identity/v1/deploy-key-events';
import { adminCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
let maintainer: AuthenticatedCaller;
let developer: AuthenticatedCaller;
let stranger: AuthenticatedCaller;
let groupId: number;
let appId: number;
let docsId: number;
let strangersId: number;

function publicKeyLine(comment = 'deployer@ci'): string {
  const key = sshpk.parseKey(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  key.comment = comment;
  return key.toString('ssh');
}

beforeAll(async () => {
  kit = await startIdentityHarness('deploy-keys');
  maintainer = await kit.createCaller('dk-maintainer');
  developer = await kit.createCaller('dk-developer');
  stranger = await kit.createCaller('dk-stranger');
  groupId = (await kit.api.post('/api/v4/groups').set(kit.as(maintainer)).send({ name: 'Keys', path: 'keys', visibility: 'private' })).body
    .id;
  appId = (await kit.api.post('/api/v4/projects').set(kit.as(maintainer)).send({ name: 'App', namespace_id: groupId })).body.id;
  docsId = (await kit.api.post('/api/v4/projects').set(kit.as(maintainer)).send({ name: 'Docs', namespace_id: groupId })).body.id;
  strangersId = (await kit.api.post('/api/v4/projects').set(kit.as(stranger)).send({ name: 'Theirs', visibility: 'public' })).body.id;
  await kit.api.post(`/api/v4/groups/${groupId}/members`).set(kit.as(maintainer)).send({ user_id: developer.userId, access_level: 30 });
});

afterAll(async () => {
  await kit?.stop();
});

describe('deploy keys', () => {
  it('adds a key to a project, enables it on another, sets can_push per project, and disables it', async () => {
    const line = publicKeyLine();
    const added = await kit.api
      .post(`/api/v4/projects/${appId}/deploy_keys`)
      .set(kit.as(maintainer))
      .send({ key: line, title: 'ci', can_push: true });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ title: 'ci', key: line, can_push: true, expires_at: null });
    expect(added.body.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    expect(added.body.fingerprint_sha256).toMatch(/^SHA256:/);
    // The same key again is the key the project has.
    const again = await kit.api.post(`/api/v4/projects/${appId}/deploy_keys`).set(kit.as(maintainer)).send({ key: line, title: 'other' });
    expect(again.body).toMatchObject({ id: added.body.id, title: 'ci' });

    const enabled = await kit.api.post(`/api/v4/projects/${docsId}/deploy_keys/${added.body.id}/enable`).set(kit.as(maintainer));
    expect(enabled.status).toBe(201);
    expect(enabled.body).toMatchObject({ id: added.body.id, title: 'ci' });
    const docsKeys = await kit.api.get(`/api/v4/projects/${docsId}/deploy_keys`).set(kit.as(maintainer));
    expect(docsKeys.body).toMatchObject([{ id: added.body.id, can_push: false }]);

    const updated = await kit.api
      .put(`/api/v4/projects/${docsId}/deploy_keys/${added.body.id}`)
      .set(kit.as(maintainer))
      .send({ title: 'renamed', can_push: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: added.body.id, title: 'renamed' });
    expect((await kit.api.get(`/api/v4/projects/${docsId}/deploy_keys/${added.body.id}`).set(kit.as(maintainer))).body).toMatchObject({
      title: 'renamed',
      can_push: true,
    });

    // Disabled on one project the key stays on the other; disabled on its last one it is gone.
    expect((await kit.api.delete(`/api/v4/projects/${appId}/deploy_keys/${added.body.id}`).set(kit.as(maintainer))).status).toBe(204);
    expect((await kit.api.get(`/api/v4/projects/${appId}/deploy_keys`).set(kit.as(maintainer))).body).toEqual([]);
    expect((await kit.api.delete(`/api/v4/projects/${docsId}/deploy_keys/${added.body.id}`).set(kit.as(maintainer))).status).toBe(204);
    const all = await kit.api.get('/api/v4/deploy_keys').set(kit.as(adminCaller()));
    expect(all.body.map((key: { id: number }) => key.id)).not.toContain(added.body.id);
  });

  it('lets administrators add instance keys, which any maintainer enables, and list every key', async () => {
    const instance = await kit.api.post('/api/v4/deploy_keys').set(kit.as(adminCaller())).send({ key: publicKeyLine(), title: 'shared' });
    expect(instance.status).toBe(201);
    expect((await kit.api.get('/api/v4/deploy_keys?public=true').set(kit.as(adminCaller()))).body).toMatchObject([
      { id: instance.body.id, title: 'shared' },
    ]);
    expect(
      (await kit.api.post(`/api/v4/projects/${strangersId}/deploy_keys/${instance.body.id}/enable`).set(kit.as(stranger))).status,
    ).toBe(201);
    expect((await kit.api.get('/api/v4/deploy_keys').set(kit.as(maintainer))).status).toBe(403);
  });

  it("refuses as GitLab does: a key of another's project is not enabled, developers are 403, outsiders 404, bad keys 400", async () => {
    const theirs = await kit.api
      .post(`/api/v4/projects/${strangersId}/deploy_keys`)
      .set(kit.as(stranger))
      .send({ key: publicKeyLine(), title: 'theirs' });
    const notReached = await kit.api.post(`/api/v4/projects/${appId}/deploy_keys/${theirs.body.id}/enable`).set(kit.as(maintainer));
    expect(notReached.status).toBe(404);
    expect(notReached.body).toEqual({ message: '404 Deploy Key Not Found' });
    expect((await kit.api.get(`/api/v4/projects/${appId}/deploy_keys`).set(kit.as(developer))).status).toBe(403);
    expect((await kit.api.get(`/api/v4/projects/${appId}/deploy_keys`).set(kit.as(stranger))).status).toBe(404);
    const bad = await kit.api
      .post(`/api/v4/projects/${appId}/deploy_keys`)
      .set(kit.as(maintainer))
      .send({ key: 'ssh-rsa nope', title: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { key: ['is invalid'] } });
    expect((await kit.api.post(`/api/v4/projects/${appId}/deploy_keys`).set(kit.as(maintainer)).send({ title: 'x' })).body).toEqual({
      error: 'key is missing',
    });
    const nothing = await kit.api.put(`/api/v4/projects/${strangersId}/deploy_keys/${theirs.body.id}`).set(kit.as(stranger)).send({});
    expect(nothing.body).toEqual({ error: 'title, can_push are missing, at least one parameter must be provided' });
  });
});

describe('deploy key events', () => {
  it('records a key added to a project, enabled on another, disabled there and deleted with its last project, and an instance key', async () => {
    const added = await kit.api
      .post(`/api/v4/projects/${appId}/deploy_keys`)
      .set(kit.as(maintainer))
      .send({ key: publicKeyLine(), title: 'audited', can_push: true });
    expect(added.status).toBe(201);
    expect((await kit.api.post(`/api/v4/projects/${docsId}/deploy_keys/${added.body.id}/enable`).set(kit.as(maintainer))).status).toBe(201);
    expect((await kit.api.delete(`/api/v4/projects/${docsId}/deploy_keys/${added.body.id}`).set(kit.as(maintainer))).status).toBe(204);
    expect((await kit.api.delete(`/api/v4/projects/${appId}/deploy_keys/${added.body.id}`).set(kit.as(maintainer))).status).toBe(204);
    const instance = await kit.api.post('/api/v4/deploy_keys').set(kit.as(adminCaller())).send({ key: publicKeyLine(), title: 'fleet' });
    expect(instance.status).toBe(201);

    const ofKey = (keyId: number) => (event: { aggregateId: string }) => event.aggregateId === String(keyId);
    const addedEvents = (await kit.outboxEvents('identity.deploy_key.added')).filter(ofKey(added.body.id));
    expect(addedEvents.map((event) => DeployKeyAdded.fromJSON(event.data))).toEqual([
      {
        key: { id: added.body.id, title: 'audited', fingerprintSha256: expect.any(String), public: false },
        project: { id: appId, pathWithNamespace: 'keys/app' },
        canPush: true,
      },
      { key: expect.objectContaining({ id: added.body.id }), project: { id: docsId, pathWithNamespace: 'keys/docs' }, canPush: false },
    ]);
    expect(addedEvents.map((event) => event.actor)).toMatchObject([{ id: maintainer.userId }, { id: maintainer.userId }]);
    const removedEvents = (await kit.outboxEvents('identity.deploy_key.removed')).filter(ofKey(added.body.id));
    expect(removedEvents.map((event) => DeployKeyRemoved.fromJSON(event.data))).toEqual([
      { key: expect.objectContaining({ id: added.body.id }), project: { id: docsId, pathWithNamespace: 'keys/docs' }, keyDeleted: false },
      { key: expect.objectContaining({ id: added.body.id }), project: { id: appId, pathWithNamespace: 'keys/app' }, keyDeleted: true },
    ]);
    const [instanceEvent] = (await kit.outboxEvents('identity.deploy_key.added')).filter(ofKey(instance.body.id));
    expect(DeployKeyAdded.fromJSON(instanceEvent?.data)).toEqual({
      key: expect.objectContaining({ id: instance.body.id, title: 'fleet', public: true }),
      project: undefined,
      canPush: false,
    });
    expect(instanceEvent?.actor).toMatchObject({ id: adminCaller().userId });
  });
});
