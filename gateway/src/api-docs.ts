import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';

/** Swagger UI's prebuilt files, from the npm package: served by the platform itself, no CDN. */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>API documentation</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
  </head>
  <body>
    <div id="api-docs"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script>SwaggerUIBundle({ url: '/api/v4/openapi.json', dom_id: '#api-docs', deepLinking: true });</script>
  </body>
</html>
`;

/** Where the API documentation is served: its router is mounted there, so that other requests never enter it. */
export const API_DOCS_PATH = '/api/docs';

/** `/api/docs`: the API document (`/api/v4/openapi.json`) rendered by Swagger UI. Mounted at `API_DOCS_PATH`. */
export function apiDocsRouter(): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.use('/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' }));
  return router;
}
