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

  it('is the only way services serve HTTP routes', async () => {
    const sources: string[] = [];
    for await (const file of glob('services/*/src/**/*.ts', { cwd: REPOSITORY_ROOT })) {
      // Tests and test harnesses call routes; they serve none.
      if (!file.endsWith('.test.ts') && !file.includes('/testing/')) sources.push(file);
    }
    const serving = [];
    for (const file of sources) {
      const text = await readFile(path.join(REPOSITORY_ROOT, file), 'utf8');
      if (/\bRouter\s*\(|\.(get|post|put|patch|delete|all|use)\(\s*['"`]\/api/.test(text)) serving.push(file);
    }
    expect(serving).toEqual([]);
  });

  it('declares the scopes GitLab documents: read_user for user reads, read_api for other reads, api for writes', async () => {
    const misdeclared = (await loadRouteCatalogue())
      .filter((route) => route.path.startsWith('/api/v4/'))
      .filter((route) => {
        if (route.method !== 'GET') return route.scope !== 'api';
        return route.scope !== (/^\/api\/v4\/users?(\/|$)/.test(route.path) ? 'read_user' : 'read_api');
      })
      .map((route) => `${route.method} ${route.path}: ${route.scope}`);
    expect(misdeclared).toEqual([]);
  });

  it('lists each method and path once', async () => {
    const keys = (await loadRouteCatalogue()).map((route) => `${route.method} ${route.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });
});
