import { describe, expect, it } from '@jest/globals';
import { glob, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadRouteCatalogue, REPOSITORY_ROOT, routeModulePaths } from './route-catalogue.ts';

describe('the route catalogue', () => {
  it('holds every route of every routes module, under the service that serves it', async () => {
    const catalogue = await loadRouteCatalogue();
    for (const file of await routeModulePaths()) {
      const service = file.split('/')[1];
      const exported = Object.values(await import(pathToFileURL(path.join(REPOSITORY_ROOT, file)).href));
      const routes = exported.filter((value) => Array.isArray(value)).flat();
      expect({ file, routes: routes.length > 0 }).toEqual({ file, routes: true });
      for (const route of routes) {
        expect(catalogue).toContainEqual(expect.objectContaining({ service, method: route.method, path: route.path }));
      }
    }
    expect(catalogue.length).toBeGreaterThan(0);
  });

  it('is the only way services serve routes under /api; protocols outside /api are mounted only as streamingRoutes', async () => {
    const sources = new Map<string, string>();
    for await (const file of glob('services/*/src/**/*.ts', { cwd: REPOSITORY_ROOT })) {
      // Tests and test harnesses call routes; they serve none.
      if (!file.endsWith('.test.ts') && !file.includes('/testing/'))
        sources.set(file, await readFile(path.join(REPOSITORY_ROOT, file), 'utf8'));
    }
    const servingApi = [...sources].filter(([, text]) => /\.(get|post|put|patch|delete|all|use)\(\s*(['"`]|\/\^?)\\?\/api\b/.test(text));
    expect(servingApi.map(([file]) => file)).toEqual([]);

    // A protocol with its own wire format (git's smart HTTP) streams bodies outside /api: its
    // file builds an express Router, serves no /api path, and each router factory it exports
    // is handed to the runtime as `streamingRoutes` by its own service, never as `routes`.
    const misplaced = [];
    for (const [file, text] of sources) {
      if (!/\bRouter\s*\(/.test(text)) continue;
      const service = file.split('/')[1];
      const factories = [...text.matchAll(/export function (\w+)\([^)]*\)\s*:\s*Router\b/g)].map((match) => match[1]);
      const mounted = factories.filter((factory) =>
        [...sources].some(
          ([other, otherText]) =>
            other.split('/')[1] === service && new RegExp(`streamingRoutes:\\s*\\[[^\\]]*\\b${factory}\\(`).test(otherText),
        ),
      );
      const mountedAsRoutes = factories.filter((factory) =>
        [...sources].some(([, otherText]) => new RegExp(`\\broutes:\\s*\\[[^\\]]*\\b${factory}\\(`).test(otherText)),
      );
      const servesApi = /['"`]\/api\b|\\\/api\b/.test(text);
      if (factories.length === 0 || mounted.length !== factories.length || mountedAsRoutes.length > 0 || servesApi) {
        misplaced.push({ file, factories, mounted, mountedAsRoutes, servesApi });
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('declares the scopes GitLab documents: read_user for user and event reads, read_code for file reads, read_api for other reads, api for writes (self_rotate for a token rotating itself)', async () => {
    const expectedRead = (path: string) => {
      if (/^\/api\/v4\/(users?(\/|$)|events$|projects\/:id\/events$)/.test(path)) return 'read_user';
      // GitLab's files API: allow_access_with_scope :read_repository on its reads.
      if (path.startsWith('/api/v4/projects/:id/repository/files/')) return 'read_code';
      return 'read_api';
    };
    // GitLab 16.10+: a token rotates itself with `api` or the narrower `self_rotate`, which grants nothing else.
    const expectedWrite = (path: string) => (path === '/api/v4/personal_access_tokens/self/rotate' ? 'self_rotate' : 'api');
    const misdeclared = (await loadRouteCatalogue())
      .filter((route) => route.path.startsWith('/api/v4/'))
      .filter((route) => (route.method !== 'GET' ? route.scope !== expectedWrite(route.path) : route.scope !== expectedRead(route.path)))
      .map((route) => `${route.method} ${route.path}: ${route.scope}`);
    expect(misdeclared).toEqual([]);
  });

  it('lists each method and path once, but for the issue list the gateway splits by query between two services', async () => {
    const keys = (await loadRouteCatalogue()).map((route) => `${route.method} ${route.path}`);
    // Incidents (`issue_type=incident`) are alerts'; every other issue is review's tracker.
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual(['GET /api/v4/projects/:id/issues']);
  });
});
