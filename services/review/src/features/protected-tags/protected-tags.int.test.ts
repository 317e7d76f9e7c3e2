/**
 * Protected tags against real PostgreSQL and Kafka (identity's access answers come from a fake): the
 * protected tags API, the tags API refusing what GitLab refuses of a protected tag, and their events.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthenticatedCaller } from '@platform/auth';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';

const developer = userCaller(51, 'dev');
const maintainer = userCaller(52, 'boss');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 31, path: 'acme/tags', levels: { 51: 30, 52: 40 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;

const api = (method: 'get' | 'post' | 'delete', url: string, caller: AuthenticatedCaller = maintainer) =>
  harness.api[method](`/api/v4/projects/31${url}`).set(harness.as(caller));
const createTag = (name: string, caller: AuthenticatedCaller) =>
  api('post', '/repository/tags', caller).send({ tag_name: name, ref: 'main' });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-protected-tags-'));
  harness = await startServiceHarness({
    label: 'review_protected_tags',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users: new FixedUserDirectory([]) })),
  });
  const created = await api('post', '/repository/files/README.md').send({ branch: 'main', content: 'hi\n', commit_message: 'Start' });
  expect(created.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('/projects/:id/protected_tags', () => {
  it('protects names and wildcards for maintainers, with the roles allowed to create their tags', async () => {
    const wildcard = await api('post', '/protected_tags').send({ name: 'v*' });
    expect(wildcard.status).toBe(201);
    expect(wildcard.body).toEqual({
      name: 'v*',
      create_access_levels: [
        {
          id: expect.any(Number),
          access_level: 40,
          access_level_description: 'Maintainers',
          deploy_key_id: null,
          user_id: null,
          group_id: null,
        },
      ],
    });
    const developers = await api('post', '/protected_tags').send({ name: 'rc-1', create_access_level: '30' });
    expect([developers.status, developers.body.create_access_levels[0].access_level_description]).toEqual([
      201,
      'Developers + Maintainers',
    ]);
    const again = await api('post', '/protected_tags').send({ name: 'v*' });
    expect([again.status, again.body]).toEqual([422, { message: ['Name has already been taken'] }]);
    expect((await api('post', '/protected_tags').send({ name: 'admins', create_access_level: 60 })).status).toBe(400);

    const list = await api('get', '/protected_tags');
    expect([list.status, list.headers['x-total']]).toEqual([200, '2']);
    expect(list.body.map((tag: { name: string }) => tag.name)).toEqual(['v*', 'rc-1']);
    expect((await api('get', `/protected_tags/${encodeURIComponent('v*')}`)).body.name).toBe('v*');
    expect(await api('get', '/protected_tags/unknown').then((response) => [response.status, response.body])).toEqual([
      404,
      { message: '404 Not Found' },
    ]);
    for (const [method, url] of [
      ['get', '/protected_tags'],
      ['post', '/protected_tags'],
      ['delete', '/protected_tags/rc-1'],
    ] as const) {
      expect((await api(method, url, developer).send({ name: 'x' })).status).toBe(403);
    }
  });

  it('refuses through the tags API what GitLab refuses of a protected tag, and shows which tags are protected', async () => {
    const refused = await createTag('v1.0', developer);
    expect([refused.status, refused.body]).toEqual([400, { message: 'You are not allowed to create this tag as it is protected.' }]);
    expect((await api('get', '/repository/tags/v1.0')).status).toBe(404);
    const allowed = await createTag('rc-1', developer);
    expect([allowed.status, allowed.body.protected]).toEqual([201, true]);
    expect((await createTag('plain', developer)).body.protected).toBe(false);
    const release = await createTag('v1.0', maintainer);
    expect([release.status, release.body.protected]).toEqual([201, true]);
    const tags = await api('get', '/repository/tags?order_by=name&sort=asc', developer);
    expect(tags.body.map((tag: { name: string; protected: boolean }) => [tag.name, tag.protected])).toEqual([
      ['plain', false],
      ['rc-1', true],
      ['v1.0', true],
    ]);

    // Deleting a protected tag is a maintainer's (GitLab's delete_tag), who must also be allowed to create it.
    expect((await api('delete', '/repository/tags/v1.0', developer)).status).toBe(403);
    expect((await api('delete', '/repository/tags/plain', developer)).status).toBe(204);
    expect((await api('delete', '/repository/tags/v1.0')).status).toBe(204);
    expect((await api('post', '/protected_tags').send({ name: 'frozen', create_access_level: 0 })).status).toBe(201);
    const frozen = await createTag('frozen', maintainer);
    expect([frozen.status, frozen.body]).toEqual([400, { message: 'You are not allowed to create this tag as it is protected.' }]);

    // Unprotected, a tag is anybody's who may push.
    expect((await api('delete', `/protected_tags/${encodeURIComponent('v*')}`)).status).toBe(204);
    expect((await api('delete', `/protected_tags/${encodeURIComponent('v*')}`)).status).toBe(404);
    const unprotected = await createTag('v2.0', developer);
    expect([unprotected.status, unprotected.body.protected]).toEqual([201, false]);
  });

  it('records each protection added or removed as an event, for the webhooks that say whether a tag is protected', async () => {
    const created = await harness.outboxEvents('review.protected_tag.created');
    const wildcard = created.find((event) => (event.data as { name: string }).name === 'v*');
    expect(wildcard).toMatchObject({ aggregateId: '31', actor: { id: 52 }, data: { projectId: 31, name: 'v*' } });
    expect((await harness.outboxEvents('review.protected_tag.deleted')).map((event) => event.data)).toContainEqual({
      projectId: 31,
      protectedTagId: (wildcard?.data as { protectedTagId: number }).protectedTagId,
      name: 'v*',
    });
  });
});
