import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new authorization key, as GitLab makes them: 32 hexadecimal characters. */
export function newIntegrationKey(): string {
  return randomBytes(16).toString('hex');
}

/** The part of an HTTP endpoint's URL that tells a project's endpoints apart. */
export function newEndpointIdentifier(): string {
  return randomBytes(8).toString('hex');
}

/** What is stored of a key: the key itself is shown once and never kept. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Whether `key` is the one whose digest was stored, in constant time. */
export function keyMatches(key: string, digest: string): boolean {
  const given = Buffer.from(keyDigest(key), 'hex');
  const stored = Buffer.from(digest, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
