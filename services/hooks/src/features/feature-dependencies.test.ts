import { describe, expect, it } from '@jest/globals';
import { featureImportCycle } from '@platform/testing';

describe("hooks's features", () => {
  it('import each other without a cycle', () => {
    expect(featureImportCycle(import.meta.dirname)).toBeNull();
  });
});
