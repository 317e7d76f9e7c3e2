import type sshpk from 'sshpk';
import { RESTRICTED_KEY_TYPES, type RestrictedKeyType } from './ssh-key-restrictions.ts';

/** GitLab's limit on the length of a key as given. */
const MAXIMUM_SSH_KEY_LENGTH = 5000;
const MINIMUM_RSA_BITS = 1024;

export interface ParsedSshKey {
  /** The key type restrictions apply to; undefined for types they do not name (security keys). */
  type: RestrictedKeyType | undefined;
  bits: number;
  /** `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`... */
  algorithm: string;
  /** The key in OpenSSH's one-line form: algorithm, base64 body and the given comment. */
  line: string;
  fingerprintSha256: string;
  fingerprintMd5: string;
}

export type SshKeyParse = { ok: true; key: ParsedSshKey } | { ok: false; problems: string[] };

/** Reads an OpenSSH public key line as GitLab's key validations do; private keys are refused. */
export async function parseSshKey(text: string): Promise<SshKeyParse> {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problems: ["can't be blank"] };
  if (trimmed.length > MAXIMUM_SSH_KEY_LENGTH) {
    return { ok: false, problems: [`is too long (maximum is ${MAXIMUM_SSH_KEY_LENGTH} characters)`] };
  }
  if (/[\r\n]/.test(trimmed)) return { ok: false, problems: ['should be a single line'] };
  // sshpk and its crypto libraries are loaded on the first key added, not at start.
  const { default: sshpkModule } = await import('sshpk');
  let key: sshpk.Key;
  try {
    key = sshpkModule.parseKey(trimmed, 'ssh');
  } catch {
    return { ok: false, problems: ['is invalid'] };
  }
  if (key.type === 'rsa' && key.size < MINIMUM_RSA_BITS) {
    return { ok: false, problems: [`must be at least ${MINIMUM_RSA_BITS} bits`] };
  }
  const line = key.toString('ssh');
  return {
    ok: true,
    key: {
      type: RESTRICTED_KEY_TYPES.find((type) => type === key.type),
      bits: key.size,
      algorithm: line.split(' ')[0] ?? key.type,
      line,
      fingerprintSha256: key
        .fingerprint('sha256')
        .toString('base64')
        .replace(/^SHA256:/, ''),
      fingerprintMd5: key.fingerprint('md5').toString('hex'),
    },
  };
}

/**
 * The key as GitLab publishes it: algorithm and body, with the comment (which often holds an
 * email address) replaced by the owner's name and the instance's host.
 */
export function publishableKey(line: string, options: { ownerName: string; host: string }): string {
  const [algorithm, body] = line.split(' ');
  return `${algorithm} ${body} ${options.ownerName} (${options.host})`;
}
