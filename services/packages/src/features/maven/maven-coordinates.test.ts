import { describe, expect, it } from '@jest/globals';
import { mavenTarget } from './maven-coordinates.ts';

describe('Maven repository paths', () => {
  it('reads the version directory and the package name before it', () => {
    expect(mavenTarget(['com', 'example', 'app', '1.0'], 'app-1.0.jar')).toEqual({
      name: 'com/example/app',
      version: '1.0',
      fileName: 'app-1.0.jar',
    });
  });

  it('takes a checksum request for the file it digests', () => {
    expect(mavenTarget(['com', 'example', 'app', '1.0'], 'app-1.0.pom.sha1')).toEqual({
      name: 'com/example/app',
      version: '1.0',
      fileName: 'app-1.0.pom',
      checksum: 'sha1',
    });
  });

  it("puts an artifact's maven-metadata.xml in the version-less package, a snapshot's in its version", () => {
    expect(mavenTarget(['com', 'example', 'app'], 'maven-metadata.xml.md5')).toEqual({
      name: 'com/example/app',
      version: null,
      fileName: 'maven-metadata.xml',
      checksum: 'md5',
    });
    expect(mavenTarget(['com', 'example', 'app', '1.1-SNAPSHOT'], 'maven-metadata.xml')).toMatchObject({ version: '1.1-SNAPSHOT' });
  });

  it('refuses paths that climb or hold no package', () => {
    expect(mavenTarget(['com', '..', 'app', '1.0'], 'app-1.0.jar')).toBeUndefined();
    expect(mavenTarget(['app'], 'app-1.0.jar')).toBeUndefined();
    expect(mavenTarget(['com', 'app', '1.0'], '.sha1')).toBeUndefined();
  });
});
