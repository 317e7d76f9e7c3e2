import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createLogger } from '@platform/logger';
import { createTestDatabase } from '@platform/testing';
import { insertUnlessPresent } from './db-errors.ts';
import { createOrm, ensureDatabase, type Orm } from './orm.ts';
import { inUnitOfWork } from './unit-of-work.ts';

const Reaction = defineEntity({
  name: 'Reaction',
  tableName: 'reactions',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    name: p.string(),
  },
});
type Reaction = InferEntity<typeof Reaction>;

const database = createTestDatabase('insert_unless_present');
let orm: Orm;

beforeAll(async () => {
  await ensureDatabase(database.url);
  orm = await createOrm({
    url: database.url,
    entities: [Reaction],
    migrations: [],
    logger: createLogger({ name: 'test', level: 'silent' }),
  });
  await orm.em
    .fork()
    .execute('create table reactions (id serial primary key, user_id integer not null, name text not null, unique (user_id, name))');
});

afterAll(async () => {
  await orm.close();
  await database.drop();
});

const namesOf = async (userId: number) =>
  (await orm.em.fork().execute<Array<{ name: string }>>('select name from reactions where user_id = ? order by name', [userId])).map(
    (row) => row.name,
  );

describe('insertUnlessPresent', () => {
  it('inserts a row and answers it, managed by the unit of work', async () => {
    await inUnitOfWork(orm, async () => {
      const created = await insertUnlessPresent(orm.em, Reaction, { userId: 1, name: 'thumbsup' } as Reaction);
      expect(created).toMatchObject({ userId: 1, name: 'thumbsup', id: expect.any(Number) });
      expect(await orm.em.findOne(Reaction, { id: created!.id })).toBe(created);
    });
    expect(await namesOf(1)).toEqual(['thumbsup']);
  });

  it('answers null for a row a unique constraint says exists, and the transaction goes on', async () => {
    await inUnitOfWork(orm, () =>
      orm.em.transactional(async () => {
        expect(await insertUnlessPresent(orm.em, Reaction, { userId: 2, name: 'tada' } as Reaction)).not.toBeNull();
        expect(await insertUnlessPresent(orm.em, Reaction, { userId: 2, name: 'tada' } as Reaction)).toBeNull();
        expect(await insertUnlessPresent(orm.em, Reaction, { userId: 2, name: 'rocket' } as Reaction)).not.toBeNull();
      }),
    );
    expect(await namesOf(2)).toEqual(['rocket', 'tada']);
  });

  it('inserts in the transaction it is called in: rolled back with it', async () => {
    await expect(
      inUnitOfWork(orm, () =>
        orm.em.transactional(async () => {
          await insertUnlessPresent(orm.em, Reaction, { userId: 3, name: 'eyes' } as Reaction);
          throw new Error('the change fails after the insert');
        }),
      ),
    ).rejects.toThrow('the change fails after the insert');
    expect(await namesOf(3)).toEqual([]);
  });
});
