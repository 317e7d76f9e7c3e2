/**
 * Repository storage moves through the real gateway, on a platform with two storages (and one
 * that cannot be written): a `git push` during a move is refused with GitLab's message; after it,
 * clone, push and merge requests work from the new storage and the old directory is gone; a failed
 * move leaves the original in place and writable; `repository_storages_weighted` chooses storages,
 * names only review's, and a new project's answer shows the storage its repository was created on.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { databaseUrlFor, type RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, testEnvironment, waitFor } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

/** The advisory lock space of review's repository locks, which a move holds while it copies. */
const REPOSITORY_LOCKS = 7_301;

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let review: pg.Client;
let work: string;
let storageRoot: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

let git: Git;

async function commit(clone: string, file: string, message: string) {
  writeFileSync(path.join(clone, file), `${message}\n`);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
}

async function createProject(name: string): Promise<{ id: number; path: string }> {
  const created = await gateway.post('/api/v4/projects').set(asRoot).send({ name, path: name, visibility: 'private' });
  expect(created.status).toBe(201);
  return { id: created.body.id as number, path: created.body.path_with_namespace as string };
}

async function repositoryRow(projectId: number) {
  return waitFor(async () => {
    const { rows } = await review.query<{ storage: string; disk_path: string; read_only: boolean }>(
      'select storage, disk_path, read_only from repositories where project_id = $1',
      [projectId],
    );
    return rows[0];
  });
}

function directoryOf(storage: string, diskPath: string): string {
  return path.join(storageRoot, storage, diskPath);
}

async function settledMove(projectId: number, moveId: number) {
  return waitFor(
    async () => {
      const move = await gateway.get(`/api/v4/projects/${projectId}/repository_storage_moves/${moveId}`).set(asRoot);
      return ['finished', 'failed', 'cleanup failed'].includes(move.body.state as string) ? move.body : undefined;
    },
    { timeoutMs: 60_000 },
  );
}

beforeAll(async () => {
  work = createWorkDir('moves');
  storageRoot = createWorkDir('storages');
  // A storage whose directory is a file: a move there fails.
  writeFileSync(path.join(storageRoot, 'broken'), '');
  git = await gitCli(work);
  platform = await startTestPlatform({
    services: ['identity', 'review', 'admin'],
    env: {
      REPOSITORY_STORAGES: ['default', 'second', 'broken'].map((name) => `${name}=${path.join(storageRoot, name)}`).join(','),
    },
  });
  gateway = request(platform.url);
  review = new pg.Client({ connectionString: databaseUrlFor(testEnvironment().postgresUrl, `${platform.databasePrefix}review`) });
  await review.connect();
}, 180_000);

afterAll(async () => {
  await review?.end();
  await platform?.stop();
  removeWorkDir(work);
  removeWorkDir(storageRoot);
});

describe('repository storage moves', () => {
  let project: { id: number; path: string };
  let remote: string;
  let clone: string;

  it('moves a repository: pushes are refused during the move, and everything works from the new storage after it', async () => {
    project = await createProject('moving');
    remote = gitRemote(platform.url, E2E_ROOT_TOKEN, project.path);
    clone = path.join(work, 'moving');
    expect((await git(['clone', '-q', remote, clone])).code).toBe(0);
    await commit(clone, 'README.md', 'Add a README');
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], clone)).code).toBe(0);
    const before = await repositoryRow(project.id);
    expect(before.storage).toBe('default');
    const original = directoryOf('default', before.disk_path);
    expect(existsSync(original)).toBe(true);

    // Held as a move's copy holds it: the move stays under way for as long as the test needs.
    const holder = new pg.Client({ connectionString: databaseUrlFor(testEnvironment().postgresUrl, `${platform.databasePrefix}review`) });
    await holder.connect();
    let moveId: number;
    try {
      await holder.query('select pg_advisory_lock($1, $2)', [REPOSITORY_LOCKS, project.id]);
      const scheduled = await gateway
        .post(`/api/v4/projects/${project.id}/repository_storage_moves`)
        .set(asRoot)
        .send({ destination_storage_name: 'second' });
      expect(scheduled.status).toBe(201);
      expect(gitlabSchemaErrors('project_repository_storage_move.json', scheduled.body)).toEqual([]);
      expect(scheduled.body).toMatchObject({
        state: 'scheduled',
        source_storage_name: 'default',
        destination_storage_name: 'second',
        project: {
          id: project.id,
          name: 'moving',
          path: 'moving',
          path_with_namespace: project.path,
          name_with_namespace: 'Administrator / moving',
        },
      });
      moveId = scheduled.body.id as number;
      await waitFor(async () => {
        const move = await gateway.get(`/api/v4/project_repository_storage_moves/${moveId}`).set(asRoot);
        return move.body.state === 'started' ? move.body : undefined;
      });

      await commit(clone, 'during.txt', 'Written during the move');
      const refused = await git(['push', 'origin', 'HEAD:main'], clone);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain('The repository is temporarily read-only. Please try again later.');
      const branch = await gateway
        .post(`/api/v4/projects/${project.id}/repository/branches`)
        .set(asRoot)
        .send({ branch: 'x', ref: 'main' });
      expect(branch.status).toBe(403);
      expect(branch.body).toEqual({ message: '403 Forbidden - The repository is temporarily read-only. Please try again later.' });
      // A second move of a repository being moved is refused as GitLab refuses it.
      const second = await gateway
        .post(`/api/v4/projects/${project.id}/repository_storage_moves`)
        .set(asRoot)
        .send({ destination_storage_name: 'default' });
      expect(second.status).toBe(400);
      expect(second.body).toEqual({ message: { project: ['is read-only'] } });
    } finally {
      await holder.end();
    }

    expect(await settledMove(project.id, moveId)).toMatchObject({ state: 'finished' });
    const after = await repositoryRow(project.id);
    expect(after).toMatchObject({ storage: 'second', read_only: false, disk_path: before.disk_path });
    expect(existsSync(original)).toBe(false);
    expect(existsSync(directoryOf('second', after.disk_path))).toBe(true);
    // The administrators' project view follows, from review's event.
    const shown = await waitFor(async () => {
      const found = await gateway.get(`/api/v4/projects/${project.id}`).set(asRoot);
      return found.body.repository_storage === 'second' ? found.body : undefined;
    });
    expect(shown.repository_storage).toBe('second');

    // The push refused during the move goes through now; a fresh clone sees it.
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], clone)).code).toBe(0);
    const fresh = path.join(work, 'moving-fresh');
    expect((await git(['clone', '-q', remote, fresh])).code).toBe(0);
    expect(existsSync(path.join(fresh, 'during.txt'))).toBe(true);

    // Merge requests work from the new storage.
    expect((await git(['checkout', '-q', '-b', 'feature'], fresh)).code).toBe(0);
    await commit(fresh, 'feature.txt', 'Add a feature');
    expect((await git(['push', '-q', 'origin', 'feature'], fresh)).code).toBe(0);
    const opened = await gateway
      .post(`/api/v4/projects/${project.id}/merge_requests`)
      .set(asRoot)
      .send({ source_branch: 'feature', target_branch: 'main', title: 'Add a feature' });
    expect(opened.status).toBe(201);
    const mergeable = await waitFor(async () => {
      const shown = await gateway.get(`/api/v4/projects/${project.id}/merge_requests/${opened.body.iid}`).set(asRoot);
      return shown.body.merge_status === 'can_be_merged' ? shown.body : undefined;
    });
    const merged = await gateway
      .put(`/api/v4/projects/${project.id}/merge_requests/${opened.body.iid}/merge`)
      .set(asRoot)
      .send({ sha: mergeable.sha });
    expect(merged.status).toBe(200);
    expect(merged.body.state).toBe('merged');
    expect((await git(['pull', '-q', 'origin', 'main'], clone)).code).toBe(0);
    expect(existsSync(path.join(clone, 'feature.txt'))).toBe(true);
  }, 180_000);

  it('lists moves newest first, for the instance and for a project, and finds each', async () => {
    const all = await gateway.get('/api/v4/project_repository_storage_moves').set(asRoot);
    expect(all.status).toBe(200);
    expect(gitlabSchemaErrors('project_repository_storage_moves.json', all.body)).toEqual([]);
    expect(all.headers['x-total']).toBe('1');
    const ofProject = await gateway.get(`/api/v4/projects/${encodeURIComponent(project.path)}/repository_storage_moves`).set(asRoot);
    expect(ofProject.body.map((move: { state: string }) => move.state)).toEqual(['finished']);
    const missing = await gateway.get('/api/v4/project_repository_storage_moves/999999').set(asRoot);
    expect(missing.status).toBe(404);
    const unknownStorage = await gateway
      .post(`/api/v4/projects/${project.id}/repository_storage_moves`)
      .set(asRoot)
      .send({ destination_storage_name: 'nowhere' });
    expect(unknownStorage.status).toBe(400);
    expect(unknownStorage.body).toEqual({ message: { destination_storage_name: ['is not included in the list'] } });
  });

  it('leaves the original in place and writable when the destination cannot be written', async () => {
    const row = await repositoryRow(project.id);
    const scheduled = await gateway
      .post(`/api/v4/projects/${project.id}/repository_storage_moves`)
      .set(asRoot)
      .send({ destination_storage_name: 'broken' });
    expect(scheduled.status).toBe(201);
    expect(await settledMove(project.id, scheduled.body.id as number)).toMatchObject({ state: 'failed' });
    expect(await repositoryRow(project.id)).toMatchObject({ storage: 'second', read_only: false });
    expect(existsSync(directoryOf('second', row.disk_path))).toBe(true);
    await commit(clone, 'after-failure.txt', 'Written after a failed move');
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], clone)).code).toBe(0);
  });

  it('refuses callers other than administrators', async () => {
    const { headers: asUser } = await createUserWithToken(gateway, 'mover', { memberships: [{ projectId: project.id, accessLevel: 40 }] });
    // Only administrators see where a repository lives.
    const ownView = await gateway.get(`/api/v4/projects/${project.id}`).set(asUser);
    expect(ownView.status).toBe(200);
    expect(ownView.body).not.toHaveProperty('repository_storage');
    expect((await gateway.get('/api/v4/project_repository_storage_moves').set(asUser)).status).toBe(403);
    expect((await gateway.get('/api/v4/project_repository_storage_moves')).status).toBe(401);
    expect(
      (await gateway.post('/api/v4/project_repository_storage_moves').set(asUser).send({ source_storage_name: 'default' })).status,
    ).toBe(403);
  });
});

describe('repository_storages_weighted', () => {
  it('chooses the storage of new repositories and the destinations of moves given none, one by one or of a whole storage', async () => {
    // Created under the default weights: on `default`.
    const onDefault = await createProject('left-behind');
    expect((await repositoryRow(onDefault.id)).storage).toBe('default');
    const weights = await gateway
      .put('/api/v4/application/settings')
      .set(asRoot)
      .send({ repository_storages_weighted: { default: 0, second: 100 } });
    expect(weights.status).toBe(200);
    // Settings reach review within seconds; new repositories land on `second` from then on.
    const placed = await waitFor(
      async () => {
        const created = await createProject(`weighted-${Date.now()}`);
        const row = await repositoryRow(created.id);
        return row.storage === 'second' ? created : undefined;
      },
      { intervalMs: 500 },
    );
    expect((await repositoryRow(placed.id)).storage).toBe('second');
    const placedView = await waitFor(async () => {
      const found = await gateway.get(`/api/v4/projects/${placed.id}`).set(asRoot);
      return found.body.repository_storage === 'second' ? found.body : undefined;
    });
    expect(placedView.repository_storage).toBe('second');

    const bulk = await gateway.post('/api/v4/project_repository_storage_moves').set(asRoot).send({ source_storage_name: 'default' });
    expect(bulk.status).toBe(202);
    expect(bulk.body).toEqual({ message: '202 Accepted' });
    const moves = await waitFor(async () => {
      const listed = await gateway.get(`/api/v4/projects/${onDefault.id}/repository_storage_moves`).set(asRoot);
      return listed.body[0]?.state === 'finished' ? listed.body : undefined;
    });
    expect(moves[0]).toMatchObject({ source_storage_name: 'default', destination_storage_name: 'second' });
    expect((await repositoryRow(onDefault.id)).storage).toBe('second');

    const invalid = await gateway.post('/api/v4/project_repository_storage_moves').set(asRoot).send({ source_storage_name: 'nowhere' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'source_storage_name does not have a valid value' });
    const missing = await gateway.post('/api/v4/project_repository_storage_moves').set(asRoot).send({});
    expect(missing.body).toEqual({ error: 'source_storage_name is missing' });
  }, 120_000);

  it("lists review's storages in the settings, refuses another, and answers where a new project's repository is", async () => {
    const settings = await gateway.get('/api/v4/application/settings').set(asRoot);
    expect(settings.body.repository_storages_weighted).toEqual({ default: 0, second: 100, broken: 0 });
    expect(settings.body.repository_storages).toEqual(['default', 'second', 'broken']);
    const unknown = await gateway
      .put('/api/v4/application/settings')
      .set(asRoot)
      .send({ repository_storages_weighted: { default: 50, nowhere: 50 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ message: { repository_storages_weighted: ["can't include: nowhere"] } });

    const created = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'placed-at-once', path: 'placed-at-once' });
    expect(created.status).toBe(201);
    expect(created.body.repository_storage).toBe('second');
    expect((await repositoryRow(created.body.id as number)).storage).toBe('second');
  });
});
