import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The `.ts` files under `directory`, its subfolders included. */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The files a source file imports by relative path (static, type, re-export and dynamic imports), resolved. */
function relativeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:from\s+|import\s*\(\s*)'(\.[^']*)'/g)].map(([, specifier]) =>
    path.resolve(path.dirname(file), specifier ?? ''),
  );
}

/** The feature folders a source file imports from, named by the first folder below `featuresDir`. */
function importedFeatures(file: string, featuresDir: string): string[] {
  const features: string[] = [];
  for (const imported of relativeImports(file)) {
    const relative = path.relative(featuresDir, imported);
    const [feature, ...rest] = relative.split(path.sep);
    if (feature && rest.length > 0 && !feature.startsWith('..')) features.push(feature);
  }
  return features;
}

/** For each feature folder of `featuresDir`, the other feature folders its files import from. */
export function featureImports(featuresDir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const folders = readdirSync(featuresDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const feature of folders.sort((a, b) => a.name.localeCompare(b.name))) {
    const imported = new Set<string>();
    for (const file of sourceFiles(path.join(featuresDir, feature.name))) {
      for (const other of importedFeatures(file, featuresDir)) if (other !== feature.name) imported.add(other);
    }
    graph.set(feature.name, imported);
  }
  return graph;
}

/** The first import cycle found, as the features on it; null when there is none. */
export function findImportCycle(graph: Map<string, Set<string>>): string[] | null {
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (feature: string): string[] | null => {
    const at = onPath.indexOf(feature);
    if (at >= 0) return [...onPath.slice(at), feature];
    if (done.has(feature)) return null;
    onPath.push(feature);
    for (const next of graph.get(feature) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    onPath.pop();
    done.add(feature);
    return null;
  };
  for (const feature of graph.keys()) {
    const cycle = visit(feature);
    if (cycle) return cycle;
  }
  return null;
}

/** The first cycle among the imports between the feature folders of `featuresDir`; null when they import in one direction. */
export function featureImportCycle(featuresDir: string): string[] | null {
  return findImportCycle(featureImports(featuresDir));
}

/**
 * The first cycle among the imports between the modules under `sourceDir` (tests left out: they
 * import what they test), as paths relative to it; null when modules import in one direction.
 */
export function moduleImportCycle(sourceDir: string): string[] | null {
  const modules = sourceFiles(sourceDir)
    .filter((file) => !file.endsWith('.test.ts'))
    .sort();
  const graph = new Map(modules.map((file) => [path.relative(sourceDir, file), new Set<string>()]));
  for (const file of modules) {
    const imports = graph.get(path.relative(sourceDir, file));
    for (const imported of relativeImports(file)) imports?.add(path.relative(sourceDir, imported));
  }
  return findImportCycle(graph);
}

/** `@scope/name` or `name` of a bare import specifier (`@scope/name/sub`, `name/sub`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * The packages a process loads from `entryFile` before it handles anything: those that the
 * modules it reaches through static relative imports import for their values (static imports
 * and re-exports; `import type` and `import()` are left out, since neither loads anything at
 * start). Workspace libraries count as packages and are not followed.
 */
export function packagesLoadedAtStart(entryFile: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier = ''] of source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm)) {
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(packageOf(specifier));
    }
  };
  visit(entryFile);
  return packages;
}
