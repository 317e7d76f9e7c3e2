/** The settings every service's database session runs with, on the ORM's and the read models' statements alike. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p } from '@mikro-orm/core';
import { sql } from 'kysely';
import { createLogger } from '@platform/logger';
import { createTestDatabase } from '@platform/testing';
import { openDatabase, type Orm } from './orm.ts';
import { readModelDatabase } from './read-model.ts';

const Setting = defineEntity({ name: 'Setting', tableName: 'settings', properties: { id: p.integer().primary() } });
const database = createTestDatabase('session_settings');
let orm: Orm;

beforeAll(async () => {
  orm = await openDatabase({
    url: database.url,
    entities: [Setting],
    migrations: [],
    logger: createLogger({ name: 'session-settings-test', level: 'silent' }),
    poolSize: 2,
  });
});

afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe("a service's database sessions", () => {
  it('never JIT-compile statements', async () => {
    const [ormSetting] = await orm.em.getConnection().execute<Array<{ jit: string }>>('show jit');
    expect(ormSetting?.jit).toBe('off');
    const { rows } = await sql<{ jit: string }>`show jit`.execute(readModelDatabase(orm.em.fork()));
    expect(rows[0]?.jit).toBe('off');
  });
});
