/**
 * Every HTTP route of every service, read from the route catalogue: each `*-routes.ts` module
 * declares its routes when imported, so importing them all yields the complete catalogue.
 */
import { glob } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { routeCatalogue, type CatalogueEntry } from '@platform/http';

export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '..');

export async function routeModulePaths(): Promise<string[]> {
  const found: string[] = [];
  for await (const file of glob('services/*/src/**/*-routes.ts', { cwd: REPOSITORY_ROOT })) found.push(file);
  return found.sort();
}

export async function loadRouteCatalogue(): Promise<readonly CatalogueEntry[]> {
  for (const file of await routeModulePaths()) await import(pathToFileURL(path.join(REPOSITORY_ROOT, file)).href);
  return routeCatalogue();
}
