import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';

/** A statement's parameters, as the placeholders its text is built with. */
export type StatementParameters<Parameters> = { readonly [Key in keyof Parameters]: RawBuilder<Parameters[Key]> };

/** Executes the statement of a shape with these parameters' values: its rows. */
export type CompiledStatement<Shape extends string, Parameters, Row> = (
  db: Kysely<unknown>,
  shape: Shape,
  parameters: Parameters,
) => Promise<Row[]>;

/**
 * A read model's statement whose text is built and compiled once per shape, at its first
 * execution, and then executed with each call's values. Kysely builds and compiles a `sql`
 * template on every call, and the prepared statement's name is then looked up by the whole new
 * text (together 25-60 µs for a 4-7 KB statement of identity's); a compiled statement's text is
 * the same string every time. `build` is given the shape (what shapes the text: a view, a
 * viewer's kind) and a placeholder for each parameter, and must not depend on their values.
 */
export function compiledStatement<Shape extends string, Parameters extends Record<string, unknown>, Row>(
  build: (shape: Shape, parameters: StatementParameters<Parameters>) => RawBuilder<Row>,
): CompiledStatement<Shape, Parameters, Row> {
  const shapes = new Map<Shape, Compiled<Parameters>>();
  return async (db, shape, parameters) => {
    let compiled = shapes.get(shape);
    if (compiled === undefined) shapes.set(shape, (compiled = compile(db, (placeholders) => build(shape, placeholders))));
    const values = compiled.values.map((value) => value(parameters));
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(compiled.text, values));
    return rows;
  };
}

/** A statement's text, and for each of its parameters where its value comes from: a placeholder's key, or the text itself. */
interface Compiled<Parameters> {
  text: string;
  values: Array<(parameters: Parameters) => unknown>;
}

function compile<Parameters extends Record<string, unknown>>(
  db: Kysely<unknown>,
  build: (parameters: StatementParameters<Parameters>) => RawBuilder<unknown>,
): Compiled<Parameters> {
  const placeholders = new Map<object, keyof Parameters>();
  const parameters = new Proxy({} as StatementParameters<Parameters>, {
    get: (_target, key) => {
      const placeholder = {};
      placeholders.set(placeholder, key as keyof Parameters);
      return sql.val(placeholder);
    },
  });
  const query = build(parameters).compile(db);
  return {
    text: query.sql,
    values: query.parameters.map((value) => {
      const key = placeholders.get(value as object);
      return key === undefined ? () => value : (given: Parameters) => given[key];
    }),
  };
}
