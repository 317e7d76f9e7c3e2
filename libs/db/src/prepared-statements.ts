import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Distinct statement texts prepared per process; beyond them statements go unnamed, as before. */
const MAX_PREPARED = 500;

export interface PreparedStatements {
  /** Starts naming statements: call once migrations have run, since a schema change invalidates prepared plans. */
  enable(): void;
  /** How many distinct statements have been named. */
  readonly count: number;
}

/**
 * Sends every parameterised statement through `pool` as a named prepared statement, so that
 * PostgreSQL parses it once per connection and can reuse its plan, instead of parsing and
 * planning each unnamed statement anew (the access-rule CTEs take about a millisecond to plan).
 * Names are digests of the text, so one name always means one text. Statements without
 * parameters (`begin`, `commit`) go as they are.
 */
export function prepareStatements(pool: pg.Pool): PreparedStatements {
  const names = new Map<string, string>();
  let enabled = false;
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= MAX_PREPARED) return known;
    const name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
      if (enabled && typeof config === 'string' && Array.isArray(values) && values.length > 0) {
        const name = nameOf(config);
        if (name !== undefined) return query({ name, text: config, values }, callback);
      }
      return query(config, values, callback);
    };
  });
  return {
    enable: () => {
      enabled = true;
    },
    get count() {
      return names.size;
    },
  };
}
