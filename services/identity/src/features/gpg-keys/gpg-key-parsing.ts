const KEY_PREFIX = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
const KEY_SUFFIX = '-----END PGP PUBLIC KEY BLOCK-----';

export interface ParsedGpgKey {
  /** The armored key, trimmed. */
  armored: string;
  /** 16 upper-case hex digits. */
  primaryKeyid: string;
  /** 40 (v4) or 64 (v6) upper-case hex digits. */
  fingerprint: string;
}

export type GpgKeyParse = { ok: true; key: ParsedGpgKey } | { ok: false; problems: string[] };

/** Reads an ASCII-armored OpenPGP public key with OpenPGP.js; private keys are refused. */
export async function parseGpgKey(text: string): Promise<GpgKeyParse> {
  const armored = text.trim();
  if (!armored) return { ok: false, problems: ["can't be blank"] };
  if (!armored.startsWith(KEY_PREFIX) || !armored.endsWith(KEY_SUFFIX)) {
    return { ok: false, problems: [`is invalid. A valid public GPG key begins with '${KEY_PREFIX}' and ends with '${KEY_SUFFIX}'`] };
  }
  try {
    // Loaded on the first key read: OpenPGP.js is the largest module the service would otherwise hold from start.
    const { readKey } = await import('openpgp');
    const key = await readKey({ armoredKey: armored });
    if (key.isPrivate()) return { ok: false, problems: ['is invalid'] };
    return {
      ok: true,
      key: { armored, primaryKeyid: key.getKeyID().toHex().toUpperCase(), fingerprint: key.getFingerprint().toUpperCase() },
    };
  } catch {
    return { ok: false, problems: ['is invalid'] };
  }
}
