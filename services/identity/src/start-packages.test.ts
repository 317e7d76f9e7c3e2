import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { packagesLoadedAtStart } from '@platform/testing';

describe("identity's start", () => {
  const loaded = packagesLoadedAtStart(path.join(import.meta.dirname, 'main.ts'));

  it('loads what every request needs', () => {
    expect(['express', '@mikro-orm/core', '@platform/http'].filter((name) => !loaded.has(name))).toEqual([]);
  });

  // Each is loaded where a rarely used route first needs it, which keeps it out of the resident size of every process.
  it.each(['openpgp', 'sshpk', 'file-type', 'gemoji', '@node-rs/argon2'])('leaves %s to the first request that needs it', (name) => {
    expect(loaded.has(name)).toBe(false);
  });
});
