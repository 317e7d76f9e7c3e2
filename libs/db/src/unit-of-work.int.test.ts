/** A unit of work forks the ORM's entity manager only when something in it uses the entity manager. */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { defineEntity, p } from '@mikro-orm/core';
import type { Request, Response } from 'express';
import { sql } from 'kysely';
import { createLogger } from '@platform/logger';
import { createTestDatabase } from '@platform/testing';
import { openDatabase, type EntityManager, type Orm } from './orm.ts';
import { readModelDatabase } from './read-model.ts';
import { inUnitOfWork, requestScope } from './unit-of-work.ts';

const Note = defineEntity({ name: 'Note', tableName: 'notes', properties: { id: p.integer().primary(), body: p.text() } });
const database = createTestDatabase('unit_of_work');
let orm: Orm;

beforeAll(async () => {
  orm = await openDatabase({
    url: database.url,
    entities: [Note],
    migrations: [],
    logger: createLogger({ name: 'unit-of-work-test', level: 'silent' }),
    poolSize: 2,
  });
  await orm.em.getConnection().execute('create table notes (id integer primary key, body text not null)');
});

afterAll(async () => {
  await orm.close();
  await database.drop();
});

/** Runs `work` as a request's handler inside `requestScope`, counting the forks of the global entity manager. */
async function inRequest<Result>(work: () => Promise<Result>): Promise<{ result: Result; forks: number }> {
  const fork = jest.spyOn(orm.em, 'fork');
  try {
    const result = await new Promise<Result>((resolve, reject) => {
      requestScope(orm)({} as Request, {} as Response, () => void work().then(resolve, reject));
    });
    return { result, forks: fork.mock.calls.length };
  } finally {
    fork.mockRestore();
  }
}

describe('a unit of work', () => {
  it('does not fork for a request that reads through a read model only', async () => {
    const { result, forks } = await inRequest(
      async () => (await sql<{ one: number }>`select 1 as one`.execute(readModelDatabase(orm.em))).rows,
    );
    expect(result).toEqual([{ one: 1 }]);
    expect(forks).toBe(0);
  });

  it('forks once, on first use, and the whole request sees that one fork', async () => {
    const { result, forks } = await inRequest(async () => {
      const first = orm.em.getContext();
      await orm.em.transactional(async (em) => {
        em.create(Note, { id: 1, body: 'written in the unit of work' });
      });
      const found = await orm.em.findOneOrFail(Note, 1);
      return { first, second: orm.em.getContext(), sameInstance: found === (await orm.em.findOneOrFail(Note, 1)) };
    });
    expect(forks).toBe(1);
    expect(result.first).toBe(result.second);
    expect(result.first).not.toBe(orm.em);
    expect(result.sameInstance).toBe(true);
  });

  it('gives each unit of work its own identity map', async () => {
    const seen: EntityManager[] = [];
    await inUnitOfWork(orm, async () => void seen.push(orm.em.getContext()));
    await inUnitOfWork(orm, async () => void seen.push(orm.em.getContext()));
    expect(seen[0]).not.toBe(seen[1]);
  });

  it('resolves to the global entity manager outside a unit of work', async () => {
    let inside: EntityManager | undefined;
    await inUnitOfWork(orm, async () => void (inside = orm.em.getContext()));
    expect(inside).not.toBe(orm.em);
    expect(orm.em.getContext(false)).toBe(orm.em);
  });
});
