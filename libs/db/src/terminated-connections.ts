import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { isConnectionFault } from '@platform/errors';

/** Long enough for the pool to read that the other connections that broke with the first one closed. */
const RETRY_DELAY_MS = 50;

/**
 * Begins a transaction once more, on another connection, when its connection broke before the
 * transaction's first statement was sent: PostgreSQL terminated it while it sat idle in the pool
 * (a failover, `pg_terminate_backend`) and the pool handed it out before reading that it closed.
 * Nothing of the transaction reached the server, so nothing can be applied twice. A fault after
 * `begin` returned is never retried: its statements may have run.
 */
class BeginRetryingConnection extends PostgreSqlConnection {
  override async begin(options: Parameters<PostgreSqlConnection['begin']>[0] = {}): ReturnType<PostgreSqlConnection['begin']> {
    // A savepoint: its transaction has sent statements already.
    if (options.ctx) return super.begin(options);
    try {
      return await super.begin(options);
    } catch (error) {
      if (!isConnectionFault(error)) throw error;
      await sleep(RETRY_DELAY_MS);
      return super.begin(options);
    }
  }
}

/** MikroORM's PostgreSQL driver with `BeginRetryingConnection` as its connection. */
export class BeginRetryingPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    // PostgreSqlDriver names its connection class itself; its connection is not opened until init.
    Object.assign(this, { connection: new BeginRetryingConnection(this.config) });
  }
}

/**
 * Gives a pooled connection that broke while checked out back to the pool at once, which discards
 * it. Kysely never releases a connection whose `begin`, `commit` or `rollback` failed, so each
 * such connection would otherwise keep its slot for good, and a pool that lost as many connections
 * as it has slots would make every later query wait forever.
 */
export function releaseBrokenConnections(pool: pg.Pool): void {
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.once('end', () => {
      if (!checkedOut.has(client)) return;
      client.release(new Error('the connection broke while checked out'));
      // The holder's own release, should it come, finds the connection returned already.
      client.release = () => undefined;
    });
  });
}
