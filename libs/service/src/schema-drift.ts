import type { ServiceConfig } from '@platform/config';
import { createLogger } from '@platform/logger';
import { openServiceDatabase, type ServiceDefinition } from './run-service.ts';

/**
 * What only the database declares, by our convention: migrations own indexes, constraints,
 * triggers and column defaults; entities describe tables and columns (defaults come from
 * `onCreate`). MikroORM proposes to drop these because the entities do not mention them.
 */
const DATABASE_ONLY = [
  /^drop index /,
  /^alter table \S+ drop constraint /,
  /^drop trigger /,
  /^drop function /,
  /^alter table \S+ alter column \S+ drop default;?$/,
];

/**
 * The statements MikroORM would run to make the migrated database match the service's
 * entities (a missing table or column, a different type or nullability), leaving out what only
 * the database declares. Empty when migrations and entities agree.
 */
export async function schemaDrift<Config extends ServiceConfig>(definition: ServiceDefinition<Config>): Promise<string[]> {
  const orm = await openServiceDatabase(definition, createLogger({ name: definition.name, level: 'silent' }));
  try {
    const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false, dropTables: false });
    return sql
      .split('\n')
      .map((statement) => statement.trim())
      .filter((statement) => statement !== '' && !DATABASE_ONLY.some((pattern) => pattern.test(statement)));
  } finally {
    await orm.close();
  }
}
