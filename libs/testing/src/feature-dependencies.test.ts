import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { featureImportCycle, featureImports, findImportCycle, moduleImportCycle } from './feature-dependencies.ts';

describe('findImportCycle', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['groups', new Set(['projects'])],
      ['projects', new Set(['members'])],
      ['members', new Set(['groups'])],
    ]);
    expect(findImportCycle(graph)).toEqual(['groups', 'projects', 'members', 'groups']);
  });

  it('finds none when features import in one direction', () => {
    const graph = new Map([
      ['groups', new Set(['access'])],
      ['projects', new Set(['access', 'groups'])],
      ['access', new Set<string>()],
    ]);
    expect(findImportCycle(graph)).toBeNull();
  });
});

describe('featureImports', () => {
  let featuresDir: string;
  const write = (file: string, source: string) => {
    mkdirSync(path.dirname(path.join(featuresDir, file)), { recursive: true });
    writeFileSync(path.join(featuresDir, file), source);
  };

  beforeAll(() => {
    featuresDir = mkdtempSync(path.join(tmpdir(), 'features-'));
    write('access/access-core.ts', "import { z } from 'zod';\nimport { config } from '../../config.ts';\n");
    write('groups/groups-service.ts', "import type { Access } from '../access/access-core.ts';\n");
    write('projects/projects-service.ts', "export { x } from '../groups/groups-service.ts';\nimport { y } from './projects-store.ts';\n");
    write('projects/nested/deep.ts', "const m = await import('../../members/members.ts');\n");
    write('members/members.ts', "import { p } from '../projects/projects-service.ts';\n");
  });
  afterAll(() => rmSync(featuresDir, { recursive: true, force: true }));

  it('names the other features each feature imports, through static, type, re-export and dynamic imports in any subfolder', () => {
    const graph = featureImports(featuresDir);
    expect(Object.fromEntries([...graph].map(([feature, imported]) => [feature, [...imported].sort()]))).toEqual({
      access: [],
      groups: ['access'],
      projects: ['groups', 'members'],
      members: ['projects'],
    });
  });

  it('reports the cycle between feature folders', () => {
    expect(featureImportCycle(featuresDir)).toEqual(['members', 'projects', 'members']);
  });
});

describe('moduleImportCycle', () => {
  let sourceDir: string;
  const write = (file: string, source: string) => {
    mkdirSync(path.dirname(path.join(sourceDir, file)), { recursive: true });
    writeFileSync(path.join(sourceDir, file), source);
  };

  beforeEach(() => {
    sourceDir = mkdtempSync(path.join(tmpdir(), 'modules-'));
    write('index.ts', "export { serve } from './server.ts';\n");
    write('server.ts', "import { toStatus } from './status.ts';\nimport type { Caller } from '@platform/auth';\n");
    write('status.ts', "import { Metadata } from '@grpc/grpc-js';\n");
    write('server.test.ts', "import { serve } from './index.ts';\n");
  });
  afterEach(() => rmSync(sourceDir, { recursive: true, force: true }));

  it('finds none when modules import in one direction, tests importing what they test', () => {
    expect(moduleImportCycle(sourceDir)).toBeNull();
  });

  it('reports a cycle between two modules, through any import form and subfolder', () => {
    write('status.ts', "const { caller } = await import('./nested/caller.ts');\n");
    write('nested/caller.ts', "import type { Status } from '../server.ts';\n");
    expect(moduleImportCycle(sourceDir)).toEqual(['server.ts', 'status.ts', path.join('nested', 'caller.ts'), 'server.ts']);
  });
});
