import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { packagesLoadedAtStart } from '@platform/testing';

describe("review's start", () => {
  const loaded = packagesLoadedAtStart(path.join(import.meta.dirname, 'main.ts'));

  it('loads what every request needs', () => {
    expect(['express', '@mikro-orm/core', '@platform/http'].filter((name) => !loaded.has(name))).toEqual([]);
  });

  it('leaves the emoji table to the first award', () => {
    expect(loaded.has('gemoji')).toBe(false);
  });
});
