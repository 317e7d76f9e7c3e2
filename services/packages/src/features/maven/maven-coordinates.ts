/** The digests Maven uploads beside each file, checked against the stored file rather than stored. */
export const CHECKSUM_EXTENSIONS = { md5: 'fileMd5', sha1: 'fileSha1', sha256: 'fileSha256' } as const;
export type ChecksumExtension = keyof typeof CHECKSUM_EXTENSIONS;

const METADATA_FILE = 'maven-metadata.xml';

/** Where a Maven request points: the package (`com/example/app`, version `1.0`) and its file. */
export interface MavenTarget {
  name: string;
  /** Null for the version-less metadata package (`com/example/app/maven-metadata.xml`). */
  version: string | null;
  fileName: string;
  /** When the request is for a digest of `fileName` (`app-1.0.jar.sha1`). */
  checksum?: ChecksumExtension;
}

/**
 * Reads a repository path as GitLab does: the directory holding a file is the version, the
 * rest the package name (group id path plus artifact id); `maven-metadata.xml` directly under
 * an artifact describes all its versions and belongs to the version-less package, except in a
 * `-SNAPSHOT` directory, where it describes that version's builds.
 */
export function mavenTarget(segments: string[], requestedFile: string): MavenTarget | undefined {
  if (segments.length === 0 || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  const extension = requestedFile.slice(requestedFile.lastIndexOf('.') + 1);
  const checksum = extension in CHECKSUM_EXTENSIONS ? (extension as ChecksumExtension) : undefined;
  const fileName = checksum ? requestedFile.slice(0, -(checksum.length + 1)) : requestedFile;
  if (fileName === '') return undefined;
  const last = segments[segments.length - 1] ?? '';
  const versionless = fileName === METADATA_FILE && !last.endsWith('-SNAPSHOT');
  if (versionless) return { name: segments.join('/'), version: null, fileName, ...(checksum ? { checksum } : {}) };
  if (segments.length < 2) return undefined;
  return { name: segments.slice(0, -1).join('/'), version: last, fileName, ...(checksum ? { checksum } : {}) };
}
