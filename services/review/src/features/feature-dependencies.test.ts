import { describe, expect, it } from '@jest/globals';
import { featureImportCycle, featureImports } from '@platform/testing';

describe("review's features", () => {
  it('import each other without a cycle: what several share lives in features/core', () => {
    expect(featureImportCycle(import.meta.dirname)).toBeNull();
  });

  it('keep the core free of imports from any feature', () => {
    expect([...(featureImports(import.meta.dirname).get('core') ?? [])]).toEqual([]);
  });
});
