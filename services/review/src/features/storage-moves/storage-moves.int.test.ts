/** Storage moves against real PostgreSQL and real repositories on disk: the jobs carrying them out, and what a move leaves behind. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FixedApplicationSettings } from '@platform/admin-client';
import { inUnitOfWork, type Orm } from '@platform/db';
import { FieldValidationError } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { createJobRunner, handleJob, openServiceDatabase, type JobRunner } from '@platform/service';
import { adminCaller, createTestDatabase, TEST_INTERNAL_SECRET, testEnvironment } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { runGit } from '../repositories/git-command.ts';
import { RepositoriesService, RepositoryReadOnlyError } from '../repositories/repositories-service.ts';
import { PgRepositoryStore } from '../repositories/repositories-store.ts';
import { RepositoryStorages } from '../repositories/repository-storages.ts';
import { repositoryChecksum } from './repository-checksum.ts';
import { StorageMoveWorker } from './storage-move-worker.ts';
import { PgStorageMoveStore } from './storage-moves-store.ts';
import { StorageMovesService } from './storage-moves-service.ts';
import { storageMoveJob } from './storage-moves.jobs.ts';

const logger = createLogger({ name: 'test', level: 'silent' });
const database = createTestDatabase('review_storage_moves');
const actor = { id: 1, username: 'root', name: 'Administrator' };
let orm: Orm;
let root: string;
let storages: RepositoryStorages;
let settings: FixedApplicationSettings;
let repositoryStore: PgRepositoryStore;
let repositories: RepositoriesService;
let store: PgStorageMoveStore;
let storageMoves: StorageMovesService;

/** A replica's job runner, run by hand (`runNext`). */
function worker(): JobRunner {
  const moves = new StorageMoveWorker({ em: orm.em, moves: store, repositories: repositoryStore, storages, logger });
  return createJobRunner({ orm, logger, jobs: [handleJob(storageMoveJob, ({ moveId }) => moves.carryOut(moveId))] });
}

const sql = <Row>(query: string, values: unknown[] = []) => orm.em.fork().execute<Row[]>(query, values);

/** A call as a route makes it, in the unit of work of its request. */
const inRequest = <Result>(work: () => Promise<Result>) => inUnitOfWork(orm, work);

/** A project's repository with two commits on main, pushed as a client would (straight to disk). */
async function repositoryWithHistory(projectId: number): Promise<string> {
  const repository = await inRequest(() => repositories.ensure(projectId));
  const work = await mkdtemp(path.join(root, 'work-'));
  await runGit(['init', '--quiet', '--initial-branch=main', work]);
  const identity = ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com'];
  for (const file of ['a', 'b']) {
    await writeFile(path.join(work, file), `${file}\n`);
    await runGit(['-C', work, 'add', file]);
    await runGit(['-C', work, ...identity, 'commit', '--quiet', '-m', `add ${file}`]);
  }
  await runGit(['-C', work, 'push', '--quiet', repository.git.path, 'main']);
  return repository.git.path;
}

async function outboxTypes(projectId: number): Promise<string[]> {
  const rows = await sql<{ type: string }>(
    "select envelope->>'type' as type from outbox where envelope->>'aggregateId' = ? and envelope->>'type' like 'review.repository%' order by id",
    [String(projectId)],
  );
  return rows.map((row) => row.type);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'storage-moves-'));
  // A storage whose directory is a file: nothing can be written below it.
  await writeFile(path.join(root, 'not-a-directory'), '');
  const config = readConfig({
    DATABASE_URL: database.url,
    KAFKA_BROKERS: testEnvironment().kafkaBrokers.join(','),
    INTERNAL_SECRET: TEST_INTERNAL_SECRET,
    REPOSITORY_STORAGES: `default=${root}/default,second=${root}/second,broken=${root}/not-a-directory`,
  });
  orm = await openServiceDatabase(reviewService(config), logger);
  storages = new RepositoryStorages(config.REPOSITORY_STORAGES);
  settings = new FixedApplicationSettings();
  repositoryStore = new PgRepositoryStore(orm.em);
  repositories = new RepositoriesService({
    em: orm.em,
    store: repositoryStore,
    storages,
    settings,
    logger,
    onDefaultBranch: async () => undefined,
  });
  store = new PgStorageMoveStore(orm.em);
  storageMoves = new StorageMovesService({ em: orm.em, store, repositories, storages, settings });
});

afterAll(async () => {
  await orm.close();
  await database.drop();
  await rm(root, { recursive: true, force: true });
});

describe('a storage move', () => {
  it('makes the repository read-only until it is copied, verified and switched, then removes the original', async () => {
    const original = await repositoryWithHistory(1);
    const checksum = await repositoryChecksum(original);
    const move = await inRequest(() => storageMoves.scheduleForProject({ projectId: 1, destination: 'second', actor }));
    expect(move).toMatchObject({ state: 'scheduled', sourceStorageName: 'default', destinationStorageName: 'second' });

    // Scheduled: changes are refused, and so is a second move.
    const before = await inRequest(() => repositories.ensure(1));
    expect(before.readOnly).toBe(true);
    await expect(inRequest(() => repositories.changeRefs(before, adminCaller(), async () => undefined))).rejects.toBeInstanceOf(
      RepositoryReadOnlyError,
    );
    await expect(inRequest(() => storageMoves.scheduleForProject({ projectId: 1, destination: 'second', actor }))).rejects.toEqual(
      new FieldValidationError({ project: ['is read-only'] }),
    );

    expect(await worker().runNext()).toBe(true);
    expect(await inRequest(() => storageMoves.find(move.id))).toMatchObject({ state: 'finished' });
    const after = await inRequest(() => repositories.ensure(1));
    expect(after).toMatchObject({ readOnly: false });
    expect(after.git.path).toBe(path.join(root, 'second', path.relative(path.join(root, 'default'), original)));
    expect(await repositoryChecksum(after.git.path)).toBe(checksum);
    expect(existsSync(original)).toBe(false);
    // Writable again, on the new storage.
    const main = await after.git.resolveCommit('main');
    await inRequest(() => repositories.changeRefs(after, adminCaller(), () => after.git.createBranch('feature', main ?? '')));
    expect((await after.git.branches()).map((branch) => branch.name)).toEqual(['feature', 'main']);
    expect(await outboxTypes(1)).toEqual([
      'review.repository.storage_changed',
      'review.repository_storage_move.scheduled',
      'review.repository_storage_move.started',
      'review.repository_storage_move.replicated',
      'review.repository.storage_changed',
      'review.repository_storage_move.finished',
      'review.repository.pushed',
    ]);
    expect(await worker().runNext()).toBe(false);
  });

  it('fails without harm where the destination cannot be written: the original stays, writable', async () => {
    const original = await repositoryWithHistory(2);
    const checksum = await repositoryChecksum(original);
    const move = await inRequest(() => storageMoves.scheduleForProject({ projectId: 2, destination: 'broken', actor }));
    expect(await worker().runNext()).toBe(true);
    expect(await inRequest(() => storageMoves.find(move.id))).toMatchObject({
      state: 'failed',
      failureReason: expect.stringContaining('ENOTDIR'),
    });
    const repository = await inRequest(() => repositories.ensure(2));
    expect(repository).toMatchObject({ readOnly: false });
    expect(repository.git.path).toBe(original);
    expect(await repositoryChecksum(original)).toBe(checksum);
    await inRequest(() => repositories.changeRefs(repository, adminCaller(), async () => undefined));
    expect(await outboxTypes(2)).toContain('review.repository_storage_move.failed');
  });

  it('is resumed from the start once the lease of a runner that died ran out, over the copy it left', async () => {
    const original = await repositoryWithHistory(3);
    const checksum = await repositoryChecksum(original);
    const move = await inRequest(() => storageMoves.scheduleForProject({ projectId: 3, destination: 'second', actor }));
    // A runner took it, began copying, and died: its lease still runs.
    await sql("update repository_storage_moves set state = 'started' where id = ?", [move.id]);
    const job = "kind = 'review.storage_move' and (payload->>'moveId')::bigint = ?";
    await sql(
      `update background_jobs set state = 'running', attempts = 1, locked_by = gen_random_uuid(), locked_until = now() + interval '1 hour' where ${job}`,
      [move.id],
    );
    const destination = original.replace(`${root}/default`, `${root}/second`);
    await runGit(['init', '--quiet', '--bare', destination]);
    await writeFile(path.join(destination, 'half-copied'), 'x');
    expect(await worker().runNext()).toBe(false);

    await sql(`update background_jobs set locked_until = now() - interval '1 second' where ${job}`, [move.id]);
    expect(await worker().runNext()).toBe(true);
    expect(await inRequest(() => storageMoves.find(move.id))).toMatchObject({ state: 'finished' });
    expect(await repositoryChecksum(destination)).toBe(checksum);
    expect(existsSync(path.join(destination, 'half-copied'))).toBe(false);
    expect(existsSync(original)).toBe(false);
  });

  it('is seen by a change whose unit of work opened the repository before the move was scheduled', async () => {
    await repositoryWithHistory(8);
    await inRequest(async () => {
      const opened = await repositories.ensure(8);
      expect(opened.readOnly).toBe(false);
      await inUnitOfWork(orm, () => storageMoves.scheduleForProject({ projectId: 8, destination: 'second', actor }));
      await expect(repositories.changeRefs(opened, adminCaller(), async () => undefined)).rejects.toBeInstanceOf(RepositoryReadOnlyError);
    });
    expect(await worker().runNext()).toBe(true);
  });

  it('is carried out by one runner only when several look at once', async () => {
    await repositoryWithHistory(4);
    await repositoryWithHistory(5);
    const first = await inRequest(() => storageMoves.scheduleForProject({ projectId: 4, destination: 'second', actor }));
    const second = await inRequest(() => storageMoves.scheduleForProject({ projectId: 5, destination: 'second', actor }));
    const ran = await Promise.all([worker().runNext(), worker().runNext(), worker().runNext()]);
    expect(ran.sort()).toEqual([false, true, true]);
    expect((await inRequest(() => storageMoves.find(first.id))).state).toBe('finished');
    expect((await inRequest(() => storageMoves.find(second.id))).state).toBe('finished');
  });
});

describe('repository_storages_weighted', () => {
  it('chooses the storage of new repositories and the destination of a move given none', async () => {
    settings.set({ repositoryStoragesWeighted: { default: 0, second: 100 } });
    try {
      const created = await inRequest(() => repositories.ensure(6));
      expect(created.git.path.startsWith(path.join(root, 'second'))).toBe(true);
      settings.set({ repositoryStoragesWeighted: { default: 100, second: 0 } });
      const move = await inRequest(() => storageMoves.scheduleForProject({ projectId: 6, destination: undefined, actor }));
      expect(move).toMatchObject({ sourceStorageName: 'second', destinationStorageName: 'default' });
      expect(await worker().runNext()).toBe(true);
      expect((await inRequest(() => repositories.ensure(6))).git.path.startsWith(path.join(root, 'default'))).toBe(true);
    } finally {
      settings.set({ repositoryStoragesWeighted: { default: 100 } });
    }
  });

  it('leaves a move to the storage the repository is on finished without copying', async () => {
    const original = await repositoryWithHistory(7);
    const move = await inRequest(() => storageMoves.scheduleForProject({ projectId: 7, destination: 'default', actor }));
    expect(await worker().runNext()).toBe(true);
    expect((await inRequest(() => storageMoves.find(move.id))).state).toBe('finished');
    expect(existsSync(original)).toBe(true);
    expect((await inRequest(() => repositories.ensure(7))).readOnly).toBe(false);
  });
});

describe('moves of a whole storage', () => {
  it('schedules every writable repository on the source, leaving those being moved alone', async () => {
    await sql('update repositories set read_only = true where project_id = 7');
    const onDefault = (
      await sql<{ project_id: string }>("select project_id from repositories where storage = 'default' and not read_only")
    ).map((row) => Number(row.project_id));
    expect(onDefault.length).toBeGreaterThan(0);
    expect(await inRequest(() => storageMoves.scheduleFromStorage({ source: 'default', destination: 'second', actor }))).toBe(
      onDefault.length,
    );
    const scheduled = await sql<{ project_id: string }>("select project_id from repository_storage_moves where state = 'scheduled'");
    expect(scheduled.map((row) => Number(row.project_id)).sort()).toEqual(onDefault.sort());
    while (await worker().runNext());
    const left = await sql("select 1 from repositories where storage = 'default' and not read_only");
    expect(left).toEqual([]);
  });
});
