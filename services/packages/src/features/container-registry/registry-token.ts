/**
 * The registry's bearer tokens (Docker's token authentication): RS256 JWTs naming what the holder
 * may do to which repositories, signed with the key whose certificate the registry trusts.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';

export type RegistryAction = 'pull' | 'push' | 'delete' | '*';

/** One entry of a token's `access` claim. */
export interface RegistryAccess {
  type: string;
  name: string;
  actions: string[];
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The key id the registry computes for a key (libtrust's fingerprint, as GitLab writes it): the
 * SHA-256 of the DER public key, its first 30 bytes in base32, in groups of four joined by colons.
 */
export function libtrustKeyId(publicKey: KeyObject): string {
  const digest = createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest()
    .subarray(0, 30);
  let bits = '';
  for (const byte of digest) bits += byte.toString(2).padStart(8, '0');
  let encoded = '';
  for (let index = 0; index < bits.length; index += 5) encoded += BASE32[parseInt(bits.slice(index, index + 5), 2)];
  return encoded.match(/.{4}/g)?.join(':') ?? encoded;
}

/**
 * `scope` parameters as clients send them (`repository:group/project:pull,push`), each parameter
 * possibly several scopes separated by spaces; anything else is ignored, as GitLab ignores it.
 */
export function parseScopes(scopes: string[]): RegistryAccess[] {
  return scopes
    .flatMap((scope) => scope.split(' '))
    .flatMap((scope) => {
      const firstColon = scope.indexOf(':');
      const lastColon = scope.lastIndexOf(':');
      if (firstColon < 0 || lastColon === firstColon) return [];
      const type = scope.slice(0, firstColon);
      const name = scope.slice(firstColon + 1, lastColon);
      const actions = scope
        .slice(lastColon + 1)
        .split(',')
        .filter((action) => action !== '');
      return type === 'repository' && name !== '' ? [{ type, name, actions }] : [];
    });
}

export interface RegistryTokenOptions {
  /** PEM private key; a key generated at start when not given (the registry then trusts none of its tokens). */
  keyFile?: string | undefined;
  issuer: string;
  service: string;
  expirySeconds: number;
}

export class RegistryTokenIssuer {
  readonly #key: KeyObject;
  readonly #keyId: string;
  readonly #options: RegistryTokenOptions;

  constructor(options: RegistryTokenOptions) {
    this.#options = options;
    this.#key = options.keyFile
      ? createPrivateKey(readFileSync(options.keyFile, 'utf8'))
      : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    this.#keyId = libtrustKeyId(createPublicKey(this.#key));
  }

  /** Whether the key was configured, or generated for this run only. */
  get configured(): boolean {
    return this.#options.keyFile !== undefined;
  }

  async issue(subject: string, access: RegistryAccess[]): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return (
      new SignJWT({ access })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.#keyId })
        .setJti(randomUUID())
        .setIssuer(this.#options.issuer)
        .setAudience(this.#options.service)
        .setSubject(subject)
        .setIssuedAt(now)
        // A little slack for clocks that differ between the platform and the registry.
        .setNotBefore(now - 5)
        .setExpirationTime(now + this.#options.expirySeconds)
        .sign(this.#key)
    );
  }
}
