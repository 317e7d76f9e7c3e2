import type { RequestHandler } from 'express';
import type { Logger } from '@platform/logger';
import type { UpstreamPool, Upstreams } from './upstreams.ts';

interface ServiceDocument {
  openapi: string;
  info: Record<string, unknown>;
  components?: Record<string, unknown>;
  security?: unknown[];
  paths: Record<string, Record<string, unknown>>;
}

async function documentOf(pool: UpstreamPool): Promise<ServiceDocument> {
  let lastError: unknown;
  for (const url of pool.urls) {
    try {
      const response = await fetch(new URL('/-/openapi.json', url), { signal: AbortSignal.timeout(5000) });
      if (response.ok) return (await response.json()) as ServiceDocument;
      lastError = new Error(`${url} answered ${response.status}`);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** The services' paths merged operation by operation: two services may serve one path (incidents among issues). */
function mergedPaths(documents: ServiceDocument[]): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const document of documents) {
    for (const [path, operations] of Object.entries(document.paths)) paths[path] = { ...paths[path], ...operations };
  }
  return paths;
}

/**
 * `GET /api/v4/openapi.json`: the OpenAPI document of the whole API, merged from each service's
 * own (generated from its route catalogue), so it never drifts from the routes served.
 */
export function apiDocument(options: { upstreams: Upstreams; logger: Logger }): RequestHandler {
  return (_req, res) => {
    Promise.all(Object.values(options.upstreams).flatMap((pool) => (pool ? [documentOf(pool)] : []))).then(
      (documents) => {
        const [first] = documents;
        res.json({ ...first, paths: mergedPaths(documents) });
      },
      (error: unknown) => {
        options.logger.warn({ err: error }, 'a service did not give its API document');
        res.status(503).json({ message: '503 Service Unavailable' });
      },
    );
  };
}
