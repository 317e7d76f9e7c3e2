import { createRequire } from 'node:module';

/** A statement as it was sent: its text and the values bound to it (none for a simple query). */
export interface SentStatement {
  text: string;
  values: unknown[];
}

interface Serializer {
  parse(query: { name?: string; text: string }): Buffer;
  bind(config?: { statement?: string; values?: unknown[] }): Buffer;
  query(text: string): Buffer;
}

// Every copy of the pg driver in the workspace writes through the one pg-protocol serializer.
const require = createRequire(createRequire(import.meta.url).resolve('pg'));
const { serialize } = require('pg-protocol') as { serialize: Serializer };

// A prepared statement's text is sent once per connection; later executions send only its name.
const statementTexts = new Map<string, string>();
let unnamedText = '';
const parse = serialize.parse;
serialize.parse = (statement) => {
  if (statement.name) statementTexts.set(statement.name, statement.text);
  else unnamedText = statement.text;
  return parse(statement);
};

/**
 * The statements this process sends to PostgreSQL while `work` runs, in order, on every
 * connection (each execution of a prepared statement counts): every statement is a round trip.
 * Background work running meanwhile (an outbox relay's polls) is listed too.
 */
export async function recordStatements(work: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const { bind, query } = serialize;
  serialize.bind = (config) => {
    const text = config?.statement ? (statementTexts.get(config.statement) ?? config.statement) : unnamedText;
    sent.push({ text, values: config?.values ?? [] });
    return bind(config);
  };
  serialize.query = (text) => {
    sent.push({ text, values: [] });
    return query(text);
  };
  try {
    await work();
  } finally {
    Object.assign(serialize, { bind, query });
  }
  return sent;
}
