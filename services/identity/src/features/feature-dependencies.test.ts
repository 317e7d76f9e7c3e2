import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const featuresDir = import.meta.dirname;

/** For each feature folder, the other feature folders its files import from. */
function featureImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const feature of readdirSync(featuresDir, { withFileTypes: true })) {
    if (!feature.isDirectory()) continue;
    const imported = new Set<string>();
    for (const file of readdirSync(path.join(featuresDir, feature.name))) {
      if (!file.endsWith('.ts')) continue;
      const source = readFileSync(path.join(featuresDir, feature.name, file), 'utf8');
      for (const [, other] of source.matchAll(/from '\.\.\/([^/']+)\//g)) if (other && other !== feature.name) imported.add(other);
    }
    graph.set(feature.name, imported);
  }
  return graph;
}

/** The first import cycle found, as the features on it; null when there is none. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
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

describe("identity's features", () => {
  it('import each other without a cycle: what several share lives in features/access', () => {
    expect(findCycle(featureImports())).toBeNull();
  });

  it('keep the access core free of imports from any other feature', () => {
    expect([...(featureImports().get('access') ?? [])]).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['groups', new Set(['projects'])],
      ['projects', new Set(['members'])],
      ['members', new Set(['groups'])],
    ]);
    expect(findCycle(graph)).toEqual(['groups', 'projects', 'members', 'groups']);
  });
});
