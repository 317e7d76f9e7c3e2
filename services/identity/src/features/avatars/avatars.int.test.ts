/** Avatars against real PostgreSQL and Kafka and a real data directory: upload, replace, remove, download, GitLab's refusals. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { GroupUpdated } from '@platform/proto/identity/v1/namespace-events';
import { adminCaller } from '@platform/testing';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, TEST_EXTERNAL_URL, type IdentityHarness } from '../../testing/identity-harness.ts';
import { AVATAR_MESSAGES } from './avatar-storage.ts';

type UserCaller = Caller & { kind: 'user' };

/** A 1x1 PNG and a 1x1 GIF: real images, told apart by their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGO4CQAAwgDBKDKz0wAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

let kit: IdentityHarness;
let owner: UserCaller;
let outsider: UserCaller;
const anonymous: Caller = { kind: 'anonymous' };

/** Where a served avatar path keeps its file in the data directory. */
function fileOf(avatarUrl: string): string {
  return path.join(kit.dataDir, 'uploads', 'system', ...new URL(avatarUrl).pathname.split('/').slice(4));
}

async function staged(): Promise<string[]> {
  return readdir(path.join(kit.dataDir, 'uploads', 'tmp')).catch(() => []);
}

beforeAll(async () => {
  kit = await startIdentityHarness('avatars');
  owner = await kit.createCaller('avowner');
  outsider = await kit.createCaller('avoutsider');
});

afterAll(async () => {
  await kit?.stop();
});

describe('group avatars', () => {
  let groupId: number;
  let firstUrl: string;

  it('takes an avatar on POST /groups as a multipart file, stores it and serves it at avatar_url', async () => {
    const response = await kit.api
      .post('/api/v4/groups')
      .set(kit.as(owner))
      .field('name', 'Pictured')
      .field('path', 'pictured')
      .field('visibility', 'private')
      .attach('avatar', PNG, { filename: 'Team Logo.png', contentType: 'application/octet-stream' });
    expect(response.status).toBe(201);
    groupId = response.body.id;
    firstUrl = response.body.avatar_url;
    expect(firstUrl).toBe(`${TEST_EXTERNAL_URL}/uploads/-/system/group/avatar/${groupId}/Team_Logo.png`);
    expect(existsSync(fileOf(firstUrl))).toBe(true);
    expect(await staged()).toEqual([]);

    const download = await kit.api.get(`/api/v4/groups/${groupId}/avatar`).set(kit.as(owner));
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe('attachment; filename="Team_Logo.png"');
    expect(download.body).toEqual(PNG);
    const served = await kit.api.get(new URL(firstUrl).pathname).set(kit.as(owner));
    expect(served.status).toBe(200);
    expect(served.body).toEqual(PNG);
  });

  it('serves a private group’s avatar only to those who see the group', async () => {
    expect((await kit.api.get(`/api/v4/groups/${groupId}/avatar`).set(kit.as(outsider))).status).toBe(404);
    expect((await kit.api.get(new URL(firstUrl).pathname).set(kit.as(anonymous))).status).toBe(404);
  });

  it('replaces the avatar on PUT, deleting the old file and recording the change', async () => {
    const response = await kit.api.put(`/api/v4/groups/${groupId}`).set(kit.as(owner)).attach('avatar', GIF, 'logo.png');
    expect(response.status).toBe(200);
    const secondUrl = response.body.avatar_url as string;
    // The content decides the type: a GIF keeps a GIF's extension whatever its name says.
    expect(secondUrl).toBe(`${TEST_EXTERNAL_URL}/uploads/-/system/group/avatar/${groupId}/logo.gif`);
    expect(existsSync(fileOf(secondUrl))).toBe(true);
    expect(existsSync(fileOf(firstUrl))).toBe(false);
    expect((await kit.api.get(new URL(firstUrl).pathname).set(kit.as(owner))).status).toBe(404);
    const events = (await kit.outboxEvents('identity.group.updated')).filter((event) => event.aggregateId === String(groupId));
    expect(GroupUpdated.fromJSON(events.at(-1)?.data).changes).toEqual([
      { attribute: 'avatar', from: new URL(firstUrl).pathname, to: new URL(secondUrl).pathname },
    ]);
  });

  it('refuses what is not one of GitLab’s image types, or over 200 KiB, with its messages, and leaves nothing behind', async () => {
    const text = await kit.api
      .put(`/api/v4/groups/${groupId}`)
      .set(kit.as(owner))
      .attach('avatar', Buffer.from('<html>not an image</html>'), 'evil.png');
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ message: { avatar: [AVATAR_MESSAGES.type] } });
    expect(AVATAR_MESSAGES.type).toBe(
      'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp',
    );
    const big = await kit.api
      .put(`/api/v4/groups/${groupId}`)
      .set(kit.as(owner))
      .attach('avatar', Buffer.concat([PNG, Buffer.alloc(200 * 1024)]), 'big.png');
    expect(big.body).toEqual({ message: { avatar: ['is too big (should be at most 200 KiB)'] } });
    const notAFile = await kit.api.put(`/api/v4/groups/${groupId}`).set(kit.as(owner)).send({ avatar: 'picture.png' });
    expect(notAFile.body).toEqual({ error: 'avatar is invalid' });
    // A change refused after the upload was staged (an invalid name) discards it.
    const refused = await kit.api
      .put(`/api/v4/groups/${groupId}`)
      .set(kit.as(owner))
      .field('name', '!!!')
      .attach('avatar', PNG, 'other.png');
    expect(refused.status).toBe(400);
    expect(await staged()).toEqual([]);
    expect((await kit.api.get(`/api/v4/groups/${groupId}`).set(kit.as(owner))).body.avatar_url).toMatch(/\/logo\.gif$/);
  });

  it('removes the avatar with an empty avatar, deleting its file', async () => {
    const before = (await kit.api.get(`/api/v4/groups/${groupId}`).set(kit.as(owner))).body.avatar_url as string;
    const response = await kit.api.put(`/api/v4/groups/${groupId}`).set(kit.as(owner)).send({ avatar: '' });
    expect(response.status).toBe(200);
    expect(response.body.avatar_url).toBeNull();
    expect(existsSync(fileOf(before))).toBe(false);
    expect(await kit.api.get(`/api/v4/groups/${groupId}/avatar`).set(kit.as(owner))).toMatchObject({
      status: 404,
      body: { message: '404 Avatar Not Found' },
    });
  });
});

describe('project avatars', () => {
  it('are uploaded on create and update and downloaded from GET /projects/:id/avatar', async () => {
    const created = await kit.api
      .post('/api/v4/projects')
      .set(kit.as(owner))
      .field('name', 'Gallery')
      .field('visibility', 'public')
      .attach('avatar', PNG, 'gallery.png');
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(created.body.avatar_url).toBe(`${TEST_EXTERNAL_URL}/uploads/-/system/project/avatar/${id}/gallery.png`);
    const updated = await kit.api.put(`/api/v4/projects/${id}`).set(kit.as(owner)).attach('avatar', GIF, 'gallery.gif');
    expect(updated.body.avatar_url).toBe(`${TEST_EXTERNAL_URL}/uploads/-/system/project/avatar/${id}/gallery.gif`);
    const download = await kit.api.get(`/api/v4/projects/${id}/avatar`).set(kit.as(anonymous));
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/gif');
    expect(download.body).toEqual(GIF);
    expect((await kit.api.get(new URL(updated.body.avatar_url).pathname).set(kit.as(anonymous))).body).toEqual(GIF);
    expect((await kit.api.put(`/api/v4/projects/${id}`).set(kit.as(outsider)).attach('avatar', PNG, 'x.png')).status).toBe(403);
    expect(await staged()).toEqual([]);
  });
});

describe('user avatars', () => {
  it('are set by administrators on PUT /users/:id, by users themselves on PUT /user/avatar, and are public', async () => {
    const byAdmin = await kit.api.put(`/api/v4/users/${owner.userId}`).set(kit.as(adminCaller())).attach('avatar', PNG, 'me.png');
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.avatar_url).toBe(`${TEST_EXTERNAL_URL}/uploads/-/system/user/avatar/${owner.userId}/me.png`);
    const own = await kit.api.put('/api/v4/user/avatar').set(kit.as(outsider)).attach('avatar', GIF, 'face.gif');
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ avatar_url: `${TEST_EXTERNAL_URL}/uploads/-/system/user/avatar/${outsider.userId}/face.gif` });
    expect((await kit.api.get(`/api/v4/users/${outsider.userId}`).set(kit.as(anonymous))).body.avatar_url).toBe(own.body.avatar_url);
    expect((await kit.api.get(new URL(own.body.avatar_url).pathname).set(kit.as(anonymous))).body).toEqual(GIF);
    expect((await kit.api.put('/api/v4/user/avatar').set(kit.as(outsider)).send({})).body).toEqual({ error: 'avatar is missing' });
    expect((await kit.api.put('/api/v4/user/avatar').set(kit.as(anonymous)).attach('avatar', GIF, 'face.gif')).status).toBe(401);
  });
});
