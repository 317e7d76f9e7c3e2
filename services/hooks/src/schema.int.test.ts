/** The checked-in migrations build exactly the tables the entities describe. */
import { afterAll, expect, it } from '@jest/globals';
import { schemaDrift } from '@platform/service';
import { createTestDatabase, TEST_INTERNAL_SECRET, testEnvironment } from '@platform/testing';
import { readConfig } from './config.ts';
import { hooksService } from './main.ts';

const database = createTestDatabase('hooks_schema');
afterAll(() => database.drop());

it('leaves nothing for MikroORM to change after migrating', async () => {
  const config = readConfig({
    DATABASE_URL: database.url,
    KAFKA_BROKERS: testEnvironment().kafkaBrokers.join(','),
    INTERNAL_SECRET: TEST_INTERNAL_SECRET,
  });
  expect(await schemaDrift(hooksService(config))).toEqual([]);
});
