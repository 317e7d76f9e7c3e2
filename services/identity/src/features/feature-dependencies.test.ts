import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { featureImportCycle, featureImports, moduleImportCycle } from '@platform/testing';

describe("identity's features", () => {
  it('import each other without a cycle: what several share lives in features/access', () => {
    expect(featureImportCycle(import.meta.dirname)).toBeNull();
  });

  it('keep the access core free of imports from any other feature', () => {
    expect([...(featureImports(import.meta.dirname).get('access') ?? [])]).toEqual([]);
  });

  it.each(['groups', 'projects'])(
    'keep the modules of %s free of import cycles: views take data, services and read models import no views',
    (feature) => {
      expect(moduleImportCycle(path.join(import.meta.dirname, feature))).toBeNull();
    },
  );
});
