export { createOrm, ensureDatabase, migrate, openDatabase, checkDatabase, databaseNameOf } from './orm.ts';
export type { Orm, CreateOrmOptions, EntityManager } from './orm.ts';
export { requestScope, inUnitOfWork } from './unit-of-work.ts';
export { translateDbError } from './db-errors.ts';
export { findPage } from './find-page.ts';
export { Migration } from '@mikro-orm/migrations';
export type { MigrationObject } from '@mikro-orm/core';
