/**
 * PostgreSQL terminating the pool's connections (a failover, `pg_terminate_backend`): a write whose
 * transaction met a dead connection before its first statement begins again on a fresh one; one
 * whose connection broke after that fails, once; no broken connection keeps its pool slot.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { defineEntity, p } from '@mikro-orm/core';
import { isConnectionFault } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { createTestDatabase } from '@platform/testing';
import { Migration } from '@mikro-orm/migrations';
import { openDatabase, type Orm } from './orm.ts';

const Note = defineEntity({
  name: 'Note',
  tableName: 'notes',
  properties: { id: p.integer().primary().autoincrement(), body: p.string() },
});
class Notes extends Migration {
  override name = 'Notes';
  override up(): void {
    this.addSql('create table notes (id serial primary key, body text not null)');
  }
}

const POOL_SIZE = 5;
const database = createTestDatabase('terminated_connections');
let orm: Orm;
let pool: pg.Pool;

beforeAll(async () => {
  orm = await openDatabase({
    url: database.url,
    entities: [Note],
    migrations: [{ name: 'Notes', class: Notes }],
    logger: createLogger({ name: 'terminated-connections-test', level: 'silent' }),
    poolSize: POOL_SIZE,
  });
  pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
});

afterAll(async () => {
  await orm.close();
  await database.drop();
});

const pgModule = createRequire(import.meta.url).resolve('pg');

/**
 * Terminates this database's idle connections from another process while this one is blocked,
 * waiting until they are gone: the pool has not yet read that they closed when the next
 * transactions take them, as when a failover kills them just before a busy process uses them.
 */
function terminateIdleConnectionsUnnoticed(): number {
  const script = `
    const pg = require(${JSON.stringify(pgModule)});
    const client = new pg.Client({ connectionString: process.argv[1] });
    client.connect()
      .then(() => client.query("select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'idle'"))
      .then((result) => { process.stdout.write(String(result.rowCount)); return client.end(); });`;
  const terminator = spawnSync(process.execPath, ['-e', script, database.url], { encoding: 'utf8' });
  if (terminator.status !== 0) throw new Error(terminator.stderr);
  return Number(terminator.stdout);
}

/** Opens `count` pooled connections at once, so that the pool holds that many idle ones afterwards. */
async function fillPool(count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => orm.em.fork().transactional((em) => em.execute('select pg_sleep(0.05)'))));
}

const checkedOut = () => pool.totalCount - pool.idleCount;

const countNotes = async (body: string) =>
  (await orm.em.fork().execute<Array<{ count: number }>>('select count(*)::int as count from notes where body = ?', [body]))[0]?.count;

describe('connections PostgreSQL terminated', () => {
  it('cost no write that met one before its first statement', async () => {
    for (let round = 1; round <= 3; round += 1) {
      await fillPool(POOL_SIZE);
      expect(terminateIdleConnectionsUnnoticed()).toBe(POOL_SIZE);
      const writes = await Promise.allSettled(
        Array.from({ length: POOL_SIZE }, () => {
          const em = orm.em.fork();
          em.create(Note, { body: `round ${round}` });
          return em.flush();
        }),
      );
      expect(writes.filter((write) => write.status === 'rejected')).toEqual([]);
      expect(await countNotes(`round ${round}`)).toBe(POOL_SIZE);
    }
  });

  it('fail, without beginning again, a transaction whose connection broke after its first statement', async () => {
    let attempts = 0;
    const write = orm.em.fork().transactional(async (em) => {
      attempts += 1;
      await em.execute(`insert into notes (body) values ('mid-transaction')`);
      await em.execute('select pg_terminate_backend(pg_backend_pid())');
    });
    const failure = await write.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isConnectionFault(failure)).toBe(true);
    expect(attempts).toBe(1);
    expect(await countNotes('mid-transaction')).toBe(0);
  });

  it('give back to the pool a connection that broke while a transaction held it', async () => {
    const failures = await Promise.allSettled([
      orm.em.fork().transactional((em) => em.execute('select pg_terminate_backend(pg_backend_pid())')),
      orm.em.fork().transactional((em) => em.execute('select pg_terminate_backend(pg_backend_pid())')),
    ]);
    expect(failures.map((failure) => failure.status)).toEqual(['rejected', 'rejected']);
    expect(checkedOut()).toBe(0);
    // The pool still serves as many transactions at once as it has slots.
    await fillPool(POOL_SIZE);
  });
});
