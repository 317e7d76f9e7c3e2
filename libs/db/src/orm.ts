import pg from 'pg';
import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import type { Logger } from '@platform/logger';
import { prepareStatements, type PreparedStatements } from './prepared-statements.ts';
import { BeginRetryingPostgreSqlDriver, releaseBrokenConnections } from './terminated-connections.ts';
import { currentEntityManager } from './unit-of-work.ts';

export type Orm = MikroORM;
export type { EntityManager };

export interface CreateOrmOptions {
  /** The service's own database, e.g. `postgresql://postgres@127.0.0.1:5432/platform_identity`. */
  url: string;
  entities: NonNullable<Options['entities']>;
  migrations: MigrationObject[];
  logger: Logger;
  poolSize?: number;
}

export function databaseNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`database URL ${redact(url)} names no database`);
  return name;
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** Creates the service's database on its server when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database "${name.replaceAll('"', '""')}"`);
      } catch (error) {
        // Another replica created it between our check and our create.
        if ((error as { code?: string }).code !== '42P04' && (error as { code?: string }).code !== '23505') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/** Each ORM's statement preparer, made when its pool is (which may be after init). */
const preparedStatements = new WeakMap<Orm, { current?: PreparedStatements }>();

export async function createOrm(options: CreateOrmOptions): Promise<Orm> {
  const prepared: { current?: PreparedStatements } = {};
  const global: { em?: EntityManager } = {};
  const orm = await MikroORM.init({
    driver: BeginRetryingPostgreSqlDriver,
    clientUrl: options.url,
    entities: options.entities,
    extensions: [Migrator],
    migrations: {
      migrationsList: options.migrations,
      snapshot: false,
      snapshotOnMigrate: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
    forceUtcTimezone: true,
    pool: { min: 1, max: options.poolSize ?? 10 },
    driverOptions: {
      // No JIT compilation of statements: the services' statements are short, and a deep page's
      // estimated cost crossed PostgreSQL's threshold, spending 570 of its 706 ms compiling
      // (docs/read-path.md, "Lists at a million rows").
      options: '-c jit=off',
      onPoolCreated: (pool: pg.Pool) => {
        prepared.current = prepareStatements(pool);
        releaseBrokenConnections(pool);
      },
    },
    // Entities leave the service as plain DTOs; nothing lazily loads behind a caller's back.
    serialization: { forceObject: true },
    // No entity has a bidirectional relation to keep in sync, and the per-instance property
    // accessors this would install cost every hydrated row a defineProperty per column
    // (16% of identity's busy time under the read benchmark).
    propagationOnPrototype: false,
    debug: false,
    logger: (message) => options.logger.debug({ orm: true }, message),
    // The unit of work under way (`requestScope`, `inUnitOfWork`), forked only once something uses it.
    context: () => (global.em ? currentEntityManager(global.em) : undefined),
  });
  global.em = orm.em;
  preparedStatements.set(orm, prepared);
  return orm;
}

/**
 * Applies pending migrations. An advisory lock keeps two replicas starting together
 * from migrating the same database at once.
 */
export async function migrate(orm: Orm): Promise<void> {
  const connection = orm.em.getConnection();
  const lockKey = 0x706c6174; // "plat"
  await connection.execute('select pg_advisory_lock(?)', [lockKey]);
  try {
    await orm.migrator.up();
  } finally {
    await connection.execute('select pg_advisory_unlock(?)', [lockKey]);
  }
}

/** The service's database, ready to use: created if missing, connected, migrated, then statements prepared. */
export async function openDatabase(options: CreateOrmOptions): Promise<Orm> {
  await ensureDatabase(options.url);
  const orm = await createOrm(options);
  await migrate(orm);
  preparedStatements.get(orm)?.current?.enable();
  return orm;
}

/** A readiness check: the database answers a query. */
export async function checkDatabase(orm: Orm): Promise<void> {
  await orm.em.fork().execute('select 1');
}
