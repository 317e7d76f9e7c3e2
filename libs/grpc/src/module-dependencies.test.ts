import { describe, expect, it } from '@jest/globals';
import { moduleImportCycle } from '@platform/testing';

describe('libs/grpc modules', () => {
  it('import one another in one direction', () => {
    expect(moduleImportCycle(import.meta.dirname)).toBeNull();
  });
});
