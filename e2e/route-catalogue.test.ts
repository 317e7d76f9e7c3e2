import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadRouteCatalogue, REPOSITORY_ROOT, routeModulePaths } from './route-catalogue.ts';

describe('the route catalogue', () => {
  it('holds every route of every routes module, under the service that serves it', async () => {
    const catalogue = await loadRouteCatalogue();
    for (const file of await routeModulePaths()) {
      const service = file.split('/')[1];
      const exported = Object.values(await import(pathToFileURL(path.join(REPOSITORY_ROOT, file)).href));
      for (const route of exported.filter((value) => Array.isArray(value)).flat()) {
        expect(catalogue).toContainEqual(expect.objectContaining({ service, method: route.method, path: route.path }));
      }
    }
    expect(catalogue.length).toBeGreaterThan(0);
  });

  it('lists each method and path once', async () => {
    const keys = (await loadRouteCatalogue()).map((route) => `${route.method} ${route.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });
});
