import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { parseCipherKey, ValueCipher } from './value-cipher.ts';

describe('variable values at rest', () => {
  const cipher = new ValueCipher(randomBytes(32));

  it('round-trips a value, never storing it in clear, with a fresh IV each time', () => {
    const stored = cipher.encrypt('s3cr3t-value', 'DEPLOY_TOKEN');
    expect(stored).not.toContain('s3cr3t');
    expect(cipher.encrypt('s3cr3t-value', 'DEPLOY_TOKEN')).not.toBe(stored);
    expect(cipher.decrypt(stored, 'DEPLOY_TOKEN')).toBe('s3cr3t-value');
  });

  it('refuses a value moved to another variable, altered, or read with another key', () => {
    const stored = cipher.encrypt('s3cr3t-value', 'DEPLOY_TOKEN');
    expect(() => cipher.decrypt(stored, 'OTHER')).toThrow();
    const bytes = Buffer.from(stored.slice(3), 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(() => cipher.decrypt(`v1:${bytes.toString('base64')}`, 'DEPLOY_TOKEN')).toThrow();
    expect(() => new ValueCipher(randomBytes(32)).decrypt(stored, 'DEPLOY_TOKEN')).toThrow();
  });

  it('reads a key as 64 hex digits or base64 of 32 bytes, and nothing else', () => {
    const key = randomBytes(32);
    expect(parseCipherKey(key.toString('hex'))).toEqual(key);
    expect(parseCipherKey(key.toString('base64'))).toEqual(key);
    expect(parseCipherKey(key.toString('base64url'))).toEqual(key);
    expect(parseCipherKey('too-short')).toBeUndefined();
    expect(parseCipherKey(randomBytes(31).toString('hex'))).toBeUndefined();
  });
});
