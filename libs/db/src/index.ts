export { createOrm, ensureDatabase, migrate, openDatabase, checkDatabase, databaseNameOf } from './orm.ts';
export type { Orm, CreateOrmOptions, EntityManager } from './orm.ts';
export { requestScope, inUnitOfWork } from './unit-of-work.ts';
export { insertUnlessPresent, translateDbError } from './db-errors.ts';
export { escapeLike, likePattern } from './like.ts';
export { COUNT_LIMIT, findPage, findPageOf, mapPage, readKeysetPage, readPage } from './page.ts';
export type { Page, PageWindow } from './page.ts';
export { Migration } from '@mikro-orm/migrations';
export type { MigrationObject } from '@mikro-orm/core';
