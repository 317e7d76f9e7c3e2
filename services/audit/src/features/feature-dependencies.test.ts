import { describe, expect, it } from '@jest/globals';
import { featureImportCycle } from '@platform/testing';

describe("audit's features", () => {
  it('import each other without a cycle', () => {
    expect(featureImportCycle(import.meta.dirname)).toBeNull();
  });
});
