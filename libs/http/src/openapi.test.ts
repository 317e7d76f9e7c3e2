import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { openApiDocument } from './openapi.ts';
import { params } from './params.ts';
import type { CatalogueEntry } from './routes.ts';

const entries: CatalogueEntry[] = [
  {
    service: 'identity',
    method: 'GET',
    path: '/api/v4/groups/:id/members/:user_id',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), user_id: params.integer(), search: z.string().optional() }),
    status: 200,
    response: z.object({ id: z.number(), username: z.string() }),
  },
  {
    service: 'identity',
    method: 'POST',
    path: '/api/v4/groups',
    access: 'user',
    scope: 'api',
    input: z.object({ name: z.string(), path: z.string(), avatar: params.file().optional() }),
    status: 201,
  },
  {
    service: 'identity',
    method: 'DELETE',
    path: '/api/v4/groups/:id',
    access: 'user',
    scope: 'api',
    input: z.object({ id: params.idOrPath() }),
    status: 204,
  },
];

describe('openApiDocument', () => {
  const document = openApiDocument(entries, { title: 'API', version: 'v4' });

  it('turns each route into an operation under its OpenAPI path', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(['/api/v4/groups/{id}/members/{user_id}', '/api/v4/groups', '/api/v4/groups/{id}']);
    expect(Object.keys(document.paths['/api/v4/groups/{id}'] ?? {})).toEqual(['delete']);
  });

  it('reads path and query parameters of reads, and the response schema, from the zod schemas', () => {
    const operation = document.paths['/api/v4/groups/{id}/members/{user_id}']?.get as Record<string, unknown>;
    expect(operation.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
      expect.objectContaining({ name: 'user_id', in: 'path', required: true, schema: expect.objectContaining({ type: 'integer' }) }),
      { name: 'search', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    expect(operation.responses).toEqual({
      200: {
        description: 'OK',
        content: { 'application/json': { schema: expect.objectContaining({ type: 'object', required: ['id', 'username'] }) } },
      },
    });
  });

  it('documents a write body in every encoding the services read, and 204 without content', () => {
    const create = document.paths['/api/v4/groups']?.post as { requestBody: { content: Record<string, { schema: unknown }> } };
    expect(Object.keys(create.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(create.requestBody.content['application/json']?.schema).toEqual(
      expect.objectContaining({ required: ['name', 'path'], properties: expect.objectContaining({ avatar: {} }) }),
    );
    const remove = document.paths['/api/v4/groups/{id}']?.delete as { responses: unknown };
    expect(remove.responses).toEqual({ 204: { description: 'No Content' } });
  });
});
