import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { CatalogueEntry } from './routes.ts';

type JsonSchema = Record<string, unknown>;

/** The parameters' JSON Schema as clients send them (before coercion); unrepresentable types (files, dates) stay open. */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function outputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const PATH_PARAMETER = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

function operationOf(entry: CatalogueEntry) {
  const input = inputSchema(entry.input);
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required ?? []) as string[]);
  const pathNames = [...entry.path.matchAll(PATH_PARAMETER)].map((match) => match[1] as string);
  const parameter = (name: string, where: 'path' | 'query') => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: properties[name] ?? { type: 'string' },
  });
  const rest = Object.keys(properties).filter((name) => !pathNames.includes(name));
  const bodyless = entry.method === 'GET' || entry.method === 'DELETE';
  const bodySchema = {
    type: 'object',
    properties: Object.fromEntries(rest.map((name) => [name, properties[name]])),
    ...(rest.some((name) => required.has(name)) ? { required: rest.filter((name) => required.has(name)) } : {}),
  };
  const description = STATUS_CODES[entry.status] ?? 'Success';
  return {
    operationId: `${entry.method.toLowerCase()}${entry.path.replace(/[^A-Za-z0-9]+(.)?/g, (_all, next: string | undefined) => (next ?? '').toUpperCase())}`,
    tags: [entry.service],
    // Who may call it and the narrowest token scope that grants it, as the route declares them.
    description: `Access: ${entry.access}. Token scope: ${entry.scope}.`,
    parameters: [...pathNames.map((name) => parameter(name, 'path')), ...(bodyless ? rest.map((name) => parameter(name, 'query')) : [])],
    ...(!bodyless && rest.length > 0
      ? { requestBody: { content: Object.fromEntries(BODY_TYPES.map((type) => [type, { schema: bodySchema }])) } }
      : {}),
    responses: {
      [String(entry.status)]:
        entry.status === 204 || !entry.response
          ? { description }
          : { description, content: { 'application/json': { schema: outputSchema(entry.response) } } },
    },
  };
}

/**
 * An OpenAPI 3.1 document generated from the route catalogue: every route's path, parameters
 * and request body from its zod schema, and its response schema where declared.
 */
export function openApiDocument(entries: readonly CatalogueEntry[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of entries) {
    const path = entry.path.replace(PATH_PARAMETER, '{$1}');
    paths[path] = { ...paths[path], [entry.method.toLowerCase()]: operationOf(entry) };
  }
  return {
    openapi: '3.1.0',
    info,
    components: {
      securitySchemes: {
        privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    security: [{ privateToken: [] }, { bearer: [] }],
    paths,
  };
}
