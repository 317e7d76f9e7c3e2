import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { platformVersion } from './platform-release.ts';

function packageJson(content: unknown): URL {
  const file = join(mkdtempSync(join(tmpdir(), 'release-')), 'package.json');
  writeFileSync(file, JSON.stringify(content));
  return pathToFileURL(file);
}

describe('platformVersion', () => {
  it("reads the root package.json's version, which is in GitLab's format", () => {
    expect(platformVersion()).toMatch(/^\d+\.\d+\.\d+(-[a-z0-9.]+)?$/);
    expect(platformVersion(packageJson({ version: '17.1.0-pre' }))).toBe('17.1.0-pre');
  });

  it('refuses to start with a version clients could not parse', () => {
    expect(() => platformVersion(packageJson({ version: 'v17' }))).toThrow();
    expect(() => platformVersion(packageJson({}))).toThrow();
  });
});
