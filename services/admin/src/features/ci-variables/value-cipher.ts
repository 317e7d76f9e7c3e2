/**
 * Variable values at rest: AES-256-GCM with the configured key, a fresh 96-bit IV per value, and
 * the variable's key as additional data, so a value copied to another variable's row fails to
 * decrypt. Stored as `v1:` and base64 of IV, tag and ciphertext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class ValueCipher {
  readonly #key: Buffer;

  /** `key` is 32 bytes. */
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('an AES-256 key is 32 bytes');
    this.#key = key;
  }

  encrypt(value: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const encrypted = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64');
  }

  decrypt(stored: string, context: string): string {
    if (!stored.startsWith(VERSION)) throw new Error('not an encrypted value');
    const bytes = Buffer.from(stored.slice(VERSION.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/** The configured key: 64 hexadecimal digits or base64 of 32 bytes; undefined when it is neither. */
export function parseCipherKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  return bytes.length === 32 ? bytes : undefined;
}
