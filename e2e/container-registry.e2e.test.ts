/**
 * The container registry end to end: the Distribution registry (Debian's `docker-registry`)
 * authorised by the platform's `/jwt/auth`, skopeo pushing and pulling hand-made OCI images with
 * personal access tokens, GitLab's permissions (developers push, reporters pull, anonymous
 * callers pull public projects' images); projects whose images are tagged keep their paths, and a
 * deleted project's images go from the registry.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { databaseUrlFor, type RunningPlatform } from '@platform/devstack';
import { testEnvironment, waitFor } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { buildImage, skopeoCopy, type BuiltImage } from './oci-images.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
let registryHost: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

/** A user with an `api` token, a member of the projects given, as registry credentials `<username>:<token>`. */
async function userWithToken(username: string, memberships: Array<{ projectId: number; level: number }>): Promise<string> {
  const user = await createUserWithToken(gateway, username, {
    memberships: memberships.map(({ projectId, level }) => ({ projectId, accessLevel: level })),
  });
  return `${username}:${user.token}`;
}

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

/** The tags the registry itself holds for `name`, asked with a token the platform grants for pulling. */
async function registryTags(name: string, credentials: string): Promise<string[]> {
  const auth = await gateway
    .get('/jwt/auth')
    .query({ service: 'container_registry', scope: `repository:${name}:pull` })
    .set('Authorization', basic(credentials));
  const response = await fetch(`${platform.registryUrl}/v2/${name}/tags/list`, { headers: { Authorization: `Bearer ${auth.body.token}` } });
  if (response.status === 404) return [];
  expect(response.status).toBe(200);
  return (((await response.json()) as { tags?: string[] | null }).tags ?? []).sort();
}

const days = (count: number) => new Date(Date.now() - count * 24 * 3600 * 1000);

function image(tag: string, createdDaysAgo: number): BuiltImage {
  return buildImage(path.join(work, `layout-${tag}-${createdDaysAgo}`), { tag, content: `image ${tag}\n`, created: days(createdDaysAgo) });
}

beforeAll(async () => {
  work = createWorkDir('registry');
  platform = await startTestPlatform({ services: ['identity', 'packages'] });
  gateway = request(platform.url);
  registryHost = new URL(platform.registryUrl ?? '').host;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('the container registry with skopeo', () => {
  let privateProject: { id: number; path: string };
  let publicProject: { id: number; path: string };
  let developer: string;
  let reporter: string;
  let stranger: string;

  it('shows where a project keeps its images, and hands out tokens only for what the caller may do', async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Ships', path: 'ships', visibility: 'public' });
    expect(group.status).toBe(201);
    const created = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'Cargo', path: 'cargo', namespace_id: group.body.id, visibility: 'private' });
    expect(created.status).toBe(201);
    expect(created.body.container_registry_image_prefix).toBe(`${registryHost}/ships/cargo`);
    privateProject = { id: created.body.id as number, path: 'ships/cargo' };
    const open = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'Dock', path: 'dock', namespace_id: group.body.id, visibility: 'public' });
    expect(open.status).toBe(201);
    publicProject = { id: open.body.id as number, path: 'ships/dock' };
    developer = await userWithToken('ship-dev', [
      { projectId: privateProject.id, level: 30 },
      { projectId: publicProject.id, level: 30 },
    ]);
    reporter = await userWithToken('ship-reporter', [{ projectId: privateProject.id, level: 20 }]);
    stranger = await userWithToken('ship-stranger', []);

    const claimsOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    const scope = `repository:${privateProject.path}:pull,push`;

    const asDeveloper = await gateway
      .get('/jwt/auth')
      .query({ service: 'container_registry', scope })
      .set('Authorization', basic(developer));
    expect(asDeveloper.status).toBe(200);
    expect(asDeveloper.body.access_token).toBe(asDeveloper.body.token);
    expect(JSON.parse(Buffer.from(String(asDeveloper.body.token).split('.')[0] ?? '', 'base64url').toString())).toMatchObject({
      alg: 'RS256',
    });
    expect(claimsOf(asDeveloper.body.token)).toMatchObject({
      aud: 'container_registry',
      sub: 'ship-dev',
      access: [{ type: 'repository', name: privateProject.path, actions: ['pull', 'push'] }],
    });

    const asReporter = await gateway.get('/jwt/auth').query({ service: 'container_registry', scope }).set('Authorization', basic(reporter));
    expect(claimsOf(asReporter.body.token).access).toEqual([{ type: 'repository', name: privateProject.path, actions: ['pull'] }]);

    // Several scopes at once: each is weighed on its own.
    const several = await gateway
      .get(
        `/jwt/auth?service=container_registry&scope=${encodeURIComponent(scope)}&scope=${encodeURIComponent(`repository:${publicProject.path}:pull,push`)}`,
      )
      .set('Authorization', basic(reporter));
    expect(claimsOf(several.body.token).access).toEqual([
      { type: 'repository', name: privateProject.path, actions: ['pull'] },
      { type: 'repository', name: publicProject.path, actions: ['pull'] },
    ]);

    const asStranger = await gateway.get('/jwt/auth').query({ service: 'container_registry', scope }).set('Authorization', basic(stranger));
    expect(asStranger.status).toBe(200);
    expect(claimsOf(asStranger.body.token).access).toEqual([]);

    const wrongPassword = await gateway
      .get('/jwt/auth')
      .query({ service: 'container_registry', scope })
      .set('Authorization', basic('ship-dev:glpat-not-a-real-token-000'));
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({ errors: [{ code: 'UNAUTHORIZED', message: 'HTTP Basic: Access denied' }] });

    const anonymous = await gateway
      .get('/jwt/auth')
      .query({ service: 'container_registry', scope: `repository:${publicProject.path}:pull,push` });
    expect(claimsOf(anonymous.body.token).access).toEqual([{ type: 'repository', name: publicProject.path, actions: ['pull'] }]);

    const otherService = await gateway.get('/jwt/auth').query({ service: 'elsewhere', scope }).set('Authorization', basic(developer));
    expect(otherService.status).toBe(404);
  });

  it('lets developers push and reporters pull, and nobody else', async () => {
    const v1 = image('v1', 3);
    const pushed = await skopeoCopy(v1.reference, `docker://${registryHost}/${privateProject.path}:v1`, {
      destinationCredentials: developer,
    });
    expect(pushed).toMatchObject({ code: 0 });
    const nested = await skopeoCopy(image('v1', 2).reference, `docker://${registryHost}/${privateProject.path}/worker:v1`, {
      destinationCredentials: developer,
    });
    expect(nested).toMatchObject({ code: 0 });

    const byReporter = await skopeoCopy(image('v2', 1).reference, `docker://${registryHost}/${privateProject.path}:v2`, {
      destinationCredentials: reporter,
    });
    expect(byReporter.code).not.toBe(0);
    expect(byReporter.output).toMatch(/denied|unauthorized/i);

    const pulledDir = path.join(work, 'pulled');
    const pulled = await skopeoCopy(`docker://${registryHost}/${privateProject.path}:v1`, `oci:${pulledDir}:v1`, {
      sourceCredentials: reporter,
    });
    expect(pulled).toMatchObject({ code: 0 });
    const index = JSON.parse(readFileSync(path.join(pulledDir, 'index.json'), 'utf8')) as { manifests: Array<{ digest: string }> };
    expect(index.manifests[0]?.digest).toBe(v1.manifestDigest);

    const byStranger = await skopeoCopy(`docker://${registryHost}/${privateProject.path}:v1`, `oci:${path.join(work, 'stranger')}:v1`, {
      sourceCredentials: stranger,
    });
    expect(byStranger.code).not.toBe(0);
    const anonymously = await skopeoCopy(`docker://${registryHost}/${privateProject.path}:v1`, `oci:${path.join(work, 'anonymous')}:v1`);
    expect(anonymously.code).not.toBe(0);
  }, 120_000);

  it('lets anybody pull a public project’s images', async () => {
    const pushed = await skopeoCopy(image('stable', 1).reference, `docker://${registryHost}/${publicProject.path}:stable`, {
      destinationCredentials: developer,
    });
    expect(pushed).toMatchObject({ code: 0 });
    const anonymously = await skopeoCopy(
      `docker://${registryHost}/${publicProject.path}:stable`,
      `oci:${path.join(work, 'public')}:stable`,
    );
    expect(anonymously).toMatchObject({ code: 0 });
    const anonymousPush = await skopeoCopy(image('nope', 1).reference, `docker://${registryHost}/${publicProject.path}:nope`);
    expect(anonymousPush.code).not.toBe(0);
  }, 120_000);

  const images = new Map<string, BuiltImage>();
  /** Pushes images tagged `tag`, made `daysAgo` days ago, to `name` (below the private project). */
  async function push(name: string, tags: Array<[string, number]>): Promise<void> {
    for (const [tag, daysAgo] of tags) {
      const built = image(`${name}-${tag}`, daysAgo);
      images.set(`${name}:${tag}`, built);
      const result = await skopeoCopy(built.reference, `docker://${registryHost}/${privateProject.path}/${name}:${tag}`, {
        destinationCredentials: developer,
      });
      expect(result).toMatchObject({ code: 0 });
    }
  }

  async function repositoryNamed(name: string): Promise<{ id: number; tags_count: number }> {
    return waitFor(
      async () => {
        const list = await gateway
          .get(`/api/v4/projects/${privateProject.id}/registry/repositories`)
          .query({ tags_count: true })
          .set(asRoot);
        return (list.body as Array<{ id: number; name: string; tags_count: number }>).find((repository) => repository.name === name);
      },
      { what: `repository ${name}` },
    );
  }

  async function tagsInApi(repositoryId: number): Promise<string[]> {
    const tags = await gateway.get(`/api/v4/projects/${privateProject.id}/registry/repositories/${repositoryId}/tags`).set(asRoot);
    expect(tags.status).toBe(200);
    return (tags.body as Array<{ name: string }>).map((tag) => tag.name).sort();
  }

  const RULE_TAGS: Array<[string, number]> = [
    ['latest', 30],
    ['v1', 10],
    ['v2', 5],
    ['v3', 1],
    ['stable', 20],
    ['dev-1', 8],
  ];

  it('lists repositories and tags from the registry’s notifications, with each tag’s manifest details', async () => {
    await push('rules-a', RULE_TAGS);
    // A second tag on the same image as v3.
    const v3 = images.get('rules-a:v3');
    const alias = await skopeoCopy(v3?.reference ?? '', `docker://${registryHost}/${privateProject.path}/rules-a:v3-alias`, {
      destinationCredentials: developer,
    });
    expect(alias).toMatchObject({ code: 0 });
    const repository = await waitFor(
      async () => {
        const found = await repositoryNamed('rules-a');
        return found.tags_count === 7 ? found : undefined;
      },
      { what: 'seven tags of rules-a' },
    );

    const list = await gateway
      .get(`/api/v4/projects/${privateProject.id}/registry/repositories`)
      .query({ tags: true, tags_count: true })
      .set('Authorization', `Bearer ${reporter.split(':')[1] ?? ''}`);
    expect(list.status).toBe(200);
    const listed = (list.body as Array<Record<string, unknown>>).find((entry) => entry.id === repository.id);
    expect(listed).toMatchObject({
      name: 'rules-a',
      path: `${privateProject.path}/rules-a`,
      project_id: privateProject.id,
      location: `${registryHost}/${privateProject.path}/rules-a`,
      status: null,
      tags_count: 7,
    });
    expect(listed?.tags).toContainEqual({
      name: 'v1',
      path: `${privateProject.path}/rules-a:v1`,
      location: `${registryHost}/${privateProject.path}/rules-a:v1`,
    });
    // The project's own repository (pushed first, without a name) is listed too.
    expect((list.body as Array<{ name: string }>).map((entry) => entry.name)).toEqual(expect.arrayContaining(['', 'worker', 'rules-a']));

    const single = await gateway.get(`/api/v4/registry/repositories/${repository.id}`).query({ tags_count: true }).set(asRoot);
    expect(single.body).toMatchObject({ id: repository.id, tags_count: 7 });
    expect(single.body.tags).toBeUndefined();
    const hidden = await gateway
      .get(`/api/v4/registry/repositories/${repository.id}`)
      .set('Authorization', `Bearer ${stranger.split(':')[1] ?? ''}`);
    expect(hidden.status).toBe(404);

    const group = await gateway.get('/api/v4/groups/ships/registry/repositories').set(asRoot);
    expect((group.body as Array<{ id: number }>).map((entry) => entry.id)).toContain(repository.id);

    expect(await tagsInApi(repository.id)).toEqual(['dev-1', 'latest', 'stable', 'v1', 'v2', 'v3', 'v3-alias']);
    const detail = await gateway.get(`/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}/tags/v2`).set(asRoot);
    const v2 = images.get('rules-a:v2');
    expect(detail.body).toEqual({
      name: 'v2',
      path: `${privateProject.path}/rules-a:v2`,
      location: `${registryHost}/${privateProject.path}/rules-a:v2`,
      revision: v2?.configDigest.replace('sha256:', ''),
      short_revision: v2?.configDigest.replace('sha256:', '').slice(0, 9),
      digest: v2?.manifestDigest,
      created_at: v2?.created.toISOString(),
      total_size: v2?.layerSize,
    });
    const missing = await gateway.get(`/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}/tags/nope`).set(asRoot);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Tag Not Found' });
  }, 180_000);

  it('deletes one tag only, even when another tag names the same image', async () => {
    const repository = await repositoryNamed('rules-a');
    const byReporter = await gateway
      .delete(`/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}/tags/v3-alias`)
      .set('Authorization', `Bearer ${reporter.split(':')[1] ?? ''}`);
    expect(byReporter.status).toBe(403);
    const deleted = await gateway
      .delete(`/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}/tags/v3-alias`)
      .set('Authorization', `Bearer ${developer.split(':')[1] ?? ''}`);
    expect(deleted.status).toBe(200);
    expect(await registryTags(`${privateProject.path}/rules-a`, developer)).toEqual(['dev-1', 'latest', 'stable', 'v1', 'v2', 'v3']);
    expect(await tagsInApi(repository.id)).toEqual(['dev-1', 'latest', 'stable', 'v1', 'v2', 'v3']);
    const v3 = await gateway.get(`/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}/tags/v3`).set(asRoot);
    expect(v3.body.digest).toBe(images.get('rules-a:v3')?.manifestDigest);
  }, 120_000);

  it('bulk-deletes by regex, keeping the keep_n newest and latest, at most once an hour', async () => {
    const repository = await repositoryNamed('rules-a');
    const path = `/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}/tags`;
    const byDeveloper = await gateway
      .delete(path)
      .query({ name_regex_delete: '.*' })
      .set('Authorization', `Bearer ${developer.split(':')[1] ?? ''}`);
    expect(byDeveloper.status).toBe(403);
    const accepted = await gateway.delete(path).query({ name_regex_delete: 'v.*|latest', keep_n: 1 }).set(asRoot);
    expect(accepted.status).toBe(202);
    const again = await gateway.delete(path).query({ name_regex_delete: '.*' }).set(asRoot);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: 'This request has already been made. You can run this at most once an hour for a given container repository',
    });
    await waitFor(async () => ((await tagsInApi(repository.id)).includes('v1') ? undefined : true), { what: 'the bulk deletion' });
    expect(await tagsInApi(repository.id)).toEqual(['dev-1', 'latest', 'stable', 'v3']);
    expect(await registryTags(`${privateProject.path}/rules-a`, developer)).toEqual(['dev-1', 'latest', 'stable', 'v3']);
  }, 120_000);

  it('bulk-deletes older tags by the deprecated name_regex, sparing name_regex_keep; a refused request costs nothing', async () => {
    await push('rules-b', RULE_TAGS);
    const repository = await waitFor(
      async () => {
        const found = await repositoryNamed('rules-b');
        return found.tags_count === 6 ? found : undefined;
      },
      { what: 'six tags of rules-b' },
    );
    const path = `/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}/tags`;
    const invalid = await gateway.delete(path).query({ name_regex_delete: '(v' }).set(asRoot);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/^name_regex_delete is an invalid regexp/);
    const backreference = await gateway.delete(path).query({ name_regex_delete: '.*', name_regex_keep: '(a)\\1' }).set(asRoot);
    expect(backreference.status).toBe(400);
    expect(backreference.body.error).toMatch(/^name_regex_keep is an invalid regexp/);
    const neither = await gateway.delete(path).query({ keep_n: 1 }).set(asRoot);
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ error: 'name_regex, name_regex_delete are missing, at least one parameter must be provided' });
    const badDuration = await gateway.delete(path).query({ name_regex: '.*', older_than: 'soon' }).set(asRoot);
    expect(badDuration.status).toBe(400);
    expect(badDuration.body).toEqual({ error: 'older_than is invalid' });
    const badKeep = await gateway.delete(path).query({ name_regex: '.*', keep_n: 'many' }).set(asRoot);
    expect(badKeep.status).toBe(400);

    const accepted = await gateway.delete(path).query({ name_regex: '.*', name_regex_keep: 'stable', older_than: '7d' }).set(asRoot);
    expect(accepted.status).toBe(202);
    await waitFor(async () => ((await tagsInApi(repository.id)).includes('v1') ? undefined : true), { what: 'the bulk deletion' });
    expect(await tagsInApi(repository.id)).toEqual(['latest', 'stable', 'v2', 'v3']);
    expect(await registryTags(`${privateProject.path}/rules-b`, developer)).toEqual(['latest', 'stable', 'v2', 'v3']);
  }, 180_000);

  it('deletes a whole repository in the background', async () => {
    const repository = await repositoryNamed('rules-b');
    const accepted = await gateway.delete(`/api/v4/projects/${privateProject.id}/registry/repositories/${repository.id}`).set(asRoot);
    expect(accepted.status).toBe(202);
    await waitFor(async () => {
      const found = await gateway.get(`/api/v4/registry/repositories/${repository.id}`).set(asRoot);
      return found.status === 404 ? true : undefined;
    });
    expect(await registryTags(`${privateProject.path}/rules-b`, developer)).toEqual([]);
  }, 120_000);
});

describe("a project's container registry and the project's path", () => {
  let ferry: { id: number };
  let fleet: { id: number };
  let boats: { id: number };
  let harbour: { id: number };
  let ferryDeveloper: string;

  const createGroup = async (attributes: Record<string, unknown>) => {
    const created = await gateway.post('/api/v4/groups').set(asRoot).send(attributes);
    expect(created.status).toBe(201);
    return { id: created.body.id as number };
  };

  async function pushTo(name: string, tag: string) {
    const pushed = await skopeoCopy(image(`${name.replace(/\//g, '-')}-${tag}`, 1).reference, `docker://${registryHost}/${name}:${tag}`, {
      destinationCredentials: ferryDeveloper,
    });
    // skopeo's output, when it failed, says why.
    expect(pushed.code === 0 ? 0 : pushed.output).toBe(0);
  }

  async function ferryRepository(): Promise<{ id: number; tags_count: number; path: string }> {
    const list = await gateway.get(`/api/v4/projects/${ferry.id}/registry/repositories`).query({ tags_count: true }).set(asRoot);
    expect(list.status).toBe(200);
    const [repository] = (list.body as Array<{ id: number; tags_count: number; path: string }>).filter((entry) => entry.tags_count > 0);
    if (!repository) throw new Error(`no tagged repository yet: ${JSON.stringify(list.body)}`);
    return repository;
  }

  it('refuses to transfer or rename a project, or a group above it, while its images are tagged', async () => {
    fleet = await createGroup({ name: 'Fleet', path: 'fleet', visibility: 'public' });
    boats = await createGroup({ name: 'Boats', path: 'boats', parent_id: fleet.id, visibility: 'public' });
    harbour = await createGroup({ name: 'Harbour', path: 'harbour', visibility: 'public' });
    const created = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Ferry', path: 'ferry', namespace_id: boats.id });
    expect(created.status).toBe(201);
    ferry = { id: created.body.id as number };
    ferryDeveloper = await userWithToken('ferry-dev', [{ projectId: ferry.id, level: 30 }]);
    await pushTo('fleet/boats/ferry', 'v1');
    const repository = await waitFor(() => ferryRepository(), { what: 'the pushed tag listed' });

    const transfer = await gateway.put(`/api/v4/projects/${ferry.id}/transfer`).set(asRoot).send({ namespace: harbour.id });
    expect(transfer.status).toBe(400);
    expect(transfer.body).toEqual({
      message:
        'Failed to transfer project {:new_namespace=>["Project cannot be transferred, because tags are present in its container registry"]}',
    });
    const rename = await gateway.put(`/api/v4/projects/${ferry.id}`).set(asRoot).send({ path: 'ferry-boat' });
    expect(rename.status).toBe(400);
    expect(rename.body).toEqual({ message: 'Cannot rename project because it contains container registry tags!' });
    // Its name is no path: that changes.
    const renamed = await gateway.put(`/api/v4/projects/${ferry.id}`).set(asRoot).send({ name: 'The Ferry' });
    expect(renamed.status).toBe(200);

    const groupMessage =
      'Cannot update the path because there are projects under this group that contain Docker images in their Container Registry. Please remove the images from your projects first and try again.';
    const groupTransfer = await gateway.post(`/api/v4/groups/${boats.id}/transfer`).set(asRoot).send({ group_id: harbour.id });
    expect(groupTransfer.status).toBe(400);
    expect(groupTransfer.body).toEqual({ message: `Transfer failed: ${groupMessage}` });
    const groupRename = await gateway.put(`/api/v4/groups/${fleet.id}`).set(asRoot).send({ path: 'armada' });
    expect(groupRename.status).toBe(400);
    expect(groupRename.body).toEqual({ message: { base: [groupMessage] } });
    const project = await gateway.get(`/api/v4/projects/${ferry.id}`).set(asRoot);
    expect(project.body.path_with_namespace).toBe('fleet/boats/ferry');

    // Without tags, the project moves.
    const deleted = await gateway.delete(`/api/v4/projects/${ferry.id}/registry/repositories/${repository.id}/tags/v1`).set(asRoot);
    expect(deleted.status).toBe(200);
    const moved = await gateway.put(`/api/v4/projects/${ferry.id}/transfer`).set(asRoot).send({ namespace: harbour.id });
    expect(moved.status).toBe(200);
    expect(moved.body.path_with_namespace).toBe('harbour/ferry');
    // Its repository, tagless now, follows it to the new path.
    const followed = await waitFor(
      async () => {
        const list = await gateway.get(`/api/v4/projects/${ferry.id}/registry/repositories`).set(asRoot);
        const entries = list.body as Array<{ id: number; path: string }>;
        return entries.every((entry) => entry.path === 'harbour/ferry') ? entries : undefined;
      },
      { what: "the repository at the project's new path" },
    );
    expect(followed.map((entry) => entry.id)).toEqual([repository.id]);
  }, 180_000);

  it("deletes a deleted project's images from the registry and forgets its repositories", async () => {
    await pushTo('harbour/ferry', 'v2');
    await pushTo('harbour/ferry/worker', 'v1');
    await waitFor(
      async () => {
        const list = await gateway.get(`/api/v4/projects/${ferry.id}/registry/repositories`).query({ tags_count: true }).set(asRoot);
        const tagged = (list.body as Array<{ tags_count: number }>).filter((entry) => entry.tags_count > 0);
        return tagged.length === 2 ? true : undefined;
      },
      { what: 'both pushed repositories listed' },
    );
    expect(await registryTags('harbour/ferry', ferryDeveloper)).toEqual(['v2']);

    const deleted = await gateway.delete(`/api/v4/projects/${ferry.id}`).set(asRoot);
    expect(deleted.status).toBe(202);
    const packages = new pg.Client({
      connectionString: databaseUrlFor(testEnvironment().postgresUrl, `${platform.databasePrefix}packages`),
    });
    await packages.connect();
    try {
      await waitFor(
        async () => {
          const rows = await packages.query('select path from container_repositories where project_id = $1', [ferry.id]);
          return rows.rowCount === 0 ? true : undefined;
        },
        { what: "the deleted project's repositories forgotten", timeoutMs: 60_000 },
      );
    } finally {
      await packages.end();
    }

    // A new project at the same path finds none of the old one's images in the registry.
    const again = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Ferry', path: 'ferry', namespace_id: harbour.id });
    expect(again.status).toBe(201);
    const [user] = (await gateway.get('/api/v4/users').query({ username: 'ferry-dev' }).set(asRoot)).body as Array<{ id: number }>;
    const member = await gateway
      .post(`/api/v4/projects/${again.body.id}/members`)
      .set(asRoot)
      .send({ user_id: user?.id, access_level: 30 });
    expect(member.status).toBe(201);
    expect(await registryTags('harbour/ferry', ferryDeveloper)).toEqual([]);
    expect(await registryTags('harbour/ferry/worker', ferryDeveloper)).toEqual([]);
  }, 180_000);
});
