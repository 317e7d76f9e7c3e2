/** Files of scoped npm packages published before their names took the scope are renamed on migration. */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Orm } from '@platform/db';
import { createLogger } from '@platform/logger';
import { openServiceDatabase } from '@platform/service';
import { createTestDatabase, TEST_INTERNAL_SECRET, testEnvironment } from '@platform/testing';
import { readConfig } from '../config.ts';
import { packagesService } from '../main.ts';
import { migrations } from './index.ts';

const database = createTestDatabase('packages_npm_file_names');
const logger = createLogger({ name: 'test', level: 'silent' });
const service = packagesService(
  readConfig({
    DATABASE_URL: database.url,
    KAFKA_BROKERS: testEnvironment().kafkaBrokers.join(','),
    INTERNAL_SECRET: TEST_INTERNAL_SECRET,
  }),
);
let orm: Orm | undefined;

beforeAll(async () => {
  // The database as the release before this migration left it, holding one file of each kind.
  const before = migrations.findIndex((migration) => migration.name === 'Migration20261126173000_scoped_npm_file_names');
  const previous = await openServiceDatabase({ ...service, migrations: migrations.slice(0, before) }, logger);
  try {
    const connection = previous.em.getConnection();
    await connection.execute(`insert into packages (id, project_id, project_path, namespace_ids, name, version, package_type, created_at, updated_at)
      values (1, 11, 'tools/kit', '[9]', '@tools/kit', '1.0.0', 'npm', now(), now()),
             (2, 11, 'tools/kit', '[9]', 'plain', '1.0.0', 'npm', now(), now()),
             (3, 11, 'tools/kit', '[9]', 'com/tools/kit', '1.0.0', 'maven', now(), now())`);
    await connection.execute(`insert into package_files (package_id, file_name, size, file_md5, file_sha1, file_sha256, storage_path, created_at)
      values (1, 'kit-1.0.0.tgz', 4, 'md5', 'sha1', 'sha256', 'aa/scoped', now()),
             (2, 'plain-1.0.0.tgz', 4, 'md5', 'sha1', 'sha256', 'aa/plain', now()),
             (3, 'kit-1.0.0.jar', 4, 'md5', 'sha1', 'sha256', 'aa/jar', now())`);
  } finally {
    await previous.close();
  }
  orm = await openServiceDatabase(service, logger);
});

afterAll(async () => {
  await orm?.close();
  await database.drop();
});

it("renames scoped npm packages' files to carry the scope, and leaves other files as they are", async () => {
  const files = await orm?.em.getConnection().execute('select package_id, file_name from package_files order by package_id');
  expect(files).toEqual([
    { package_id: '1', file_name: '@tools/kit-1.0.0.tgz' },
    { package_id: '2', file_name: 'plain-1.0.0.tgz' },
    { package_id: '3', file_name: 'kit-1.0.0.jar' },
  ]);
});
