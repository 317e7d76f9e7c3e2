import { createHash } from 'node:crypto';
import pg from 'pg';

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
 * parameters (`begin`, `commit`) go as they are. Each named statement's result columns are
 * described once per connection (`DescribedOnceQuery`).
 */
export function prepareStatements(pool: pg.Pool): PreparedStatements {
  const names = new Map<string, string>();
  const described: SharedDescriptions = new Map();
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
        if (name !== undefined) return submitNamed(query, new DescribedOnceQuery({ name, text: config, values }, described), callback);
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

/** What a query handed to pg as a submittable answers with, as pg's own `client.query(text, values)` does. */
type QueryCallback = (error: Error | undefined, result: pg.QueryResult) => void;

/** Submits `named` as `client.query(text, values, callback)` would: to `callback` when given, else as a promise. */
function submitNamed(query: (submittable: unknown) => unknown, named: QueryInternals, callback: unknown): unknown {
  if (typeof callback === 'function') {
    named.callback = callback as QueryCallback;
    query(named);
    return undefined;
  }
  return new Promise<pg.QueryResult>((resolve, reject) => {
    named.callback = (error, result) => (error ? reject(error) : resolve(result));
    query(named);
  }).catch((error: unknown) => {
    // As pg does: a stack leading back to the caller rather than to the socket's read.
    if (error instanceof Error) Error.captureStackTrace(error);
    throw error;
  });
}

/** What pg's `Result` (pg/lib/result.js) holds to parse rows: the columns, a parser for each, the empty row. */
interface ResultInternals {
  fields: Field[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: object | null;
}

/** What pg's wire connection (pg/lib/connection.js) offers a query submitting itself, as pg-cursor uses it. */
interface ConnectionInternals {
  parsedStatements: Record<string, string | undefined>;
  bind(config: {
    portal: string;
    statement: string;
    values: unknown[] | undefined;
    binary: boolean | undefined;
    valueMapper: unknown;
  }): void;
  execute(config: { portal: string }): void;
  sync(): void;
}

/** The parts of pg's `Query` (pg/lib/query.js) a described-once query overrides or reads. */
interface QueryInternals {
  name?: string;
  portal: string;
  values?: unknown[];
  binary?: boolean;
  callback?: QueryCallback;
  _result: ResultInternals;
  _accumulateRows: boolean;
  prepare(connection: ConnectionInternals): void;
  handleRowDescription(message: unknown): void;
  handleError(error: unknown, connection: ConnectionInternals): void;
}
type QueryClass = new (config: { name: string; text: string; values: unknown[] }) => QueryInternals;

/** pg-protocol's description of a result column. */
interface Field {
  name: string;
  tableID: number;
  columnID: number;
  dataTypeID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: string;
}

/** A named statement's result columns as PostgreSQL described them on one connection, and what pg built from them. */
interface ResultDescription {
  fields: Field[];
  parsers: unknown[] | undefined;
  emptyRow: object | null;
}

/** Per connection, the result descriptions of the named statements executed on it. */
const descriptions = new WeakMap<ConnectionInternals, Map<string, ResultDescription>>();
/**
 * A pool's result descriptions by statement name, which its connections share when they described
 * a statement alike (its clients share their type parsers): one copy per statement, not per
 * connection (about 15 KB for 61 columns).
 */
type SharedDescriptions = Map<string, ResultDescription>;
/** pg's conversion of a parameter to its text, as its own Bind uses it. */
const prepareValue = (pg as unknown as { utils: { prepareValue: unknown } }).utils.prepareValue;

/**
 * pg's query, except that a named statement already parsed and described on its connection is
 * executed with Bind, Execute and Sync only. pg sends a Describe with every execution, and for
 * each answer parses the row description and builds the columns' parsers and empty row again
 * (`Result.addFields`), about 7 µs for 3 columns and 50-150 µs for a project's 61. The first
 * execution on a connection describes as before and is remembered; later ones reuse it. A named
 * statement's result columns cannot change under it: PostgreSQL refuses to execute a prepared
 * statement whose result type a schema change altered ("cached plan must not change result
 * type"), as it did with the Describe, and a new connection describes anew.
 */
class DescribedOnceQuery extends (pg.Query as unknown as QueryClass) {
  readonly #shared: SharedDescriptions;
  #connection: ConnectionInternals | undefined;

  constructor(config: { name: string; text: string; values: unknown[] }, shared: SharedDescriptions) {
    super(config);
    this.#shared = shared;
  }

  override prepare(connection: ConnectionInternals): void {
    const { name } = this;
    const described =
      name !== undefined && connection.parsedStatements[name] !== undefined ? descriptions.get(connection)?.get(name) : undefined;
    if (name === undefined || described === undefined) {
      this.#connection = connection;
      super.prepare(connection);
      return;
    }
    const result = this._result;
    result.fields = described.fields;
    result._parsers = described.parsers;
    result._prebuiltEmptyResultObject = described.emptyRow;
    this._accumulateRows = true;
    try {
      connection.bind({ portal: this.portal, statement: name, values: this.values, binary: this.binary, valueMapper: prepareValue });
    } catch (error) {
      // Nothing was parsed for this execution, so unlike pg there is no statement to close.
      connection.sync();
      this.handleError(error, connection);
      return;
    }
    connection.execute({ portal: this.portal });
    connection.sync();
  }

  override handleRowDescription(message: unknown): void {
    super.handleRowDescription(message);
    const { name } = this;
    const connection = this.#connection;
    if (connection === undefined || name === undefined) return;
    let described = descriptions.get(connection);
    if (described === undefined) descriptions.set(connection, (described = new Map()));
    const result = this._result;
    const shared = this.#shared.get(name);
    if (shared !== undefined && sameColumns(shared.fields, result.fields)) {
      described.set(name, shared);
      return;
    }
    const own = { fields: result.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject };
    if (shared === undefined) this.#shared.set(name, own);
    described.set(name, own);
  }
}

function sameColumns(some: Field[], others: Field[]): boolean {
  return (
    some.length === others.length &&
    some.every((field, index) => {
      const other = others[index];
      return (
        other !== undefined &&
        field.name === other.name &&
        field.tableID === other.tableID &&
        field.columnID === other.columnID &&
        field.dataTypeID === other.dataTypeID &&
        field.dataTypeSize === other.dataTypeSize &&
        field.dataTypeModifier === other.dataTypeModifier &&
        field.format === other.format
      );
    })
  );
}
