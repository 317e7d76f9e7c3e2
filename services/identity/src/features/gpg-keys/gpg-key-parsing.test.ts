import { describe, expect, it } from '@jest/globals';
import { generateKey, readKey } from 'openpgp';
import { parseGpgKey } from './gpg-key-parsing.ts';

async function armoredKeys() {
  return generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ name: 'Ada', email: 'ada@example.com' }], format: 'armored' });
}

describe('parseGpgKey', () => {
  it('reads the primary key id and fingerprint of an armored public key', async () => {
    const { publicKey } = await armoredKeys();
    const parsed = await parseGpgKey(`\n${publicKey}\n`);
    const key = await readKey({ armoredKey: publicKey });
    expect(parsed).toEqual({
      ok: true,
      key: {
        armored: publicKey.trim(),
        primaryKeyid: key.getKeyID().toHex().toUpperCase(),
        fingerprint: key.getFingerprint().toUpperCase(),
      },
    });
  });

  it('refuses text that is not an armored public key block', async () => {
    const parsed = await parseGpgKey('ssh-ed25519 AAAA');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems[0]).toMatch(/^is invalid\. A valid public GPG key begins with/);
    expect(await parseGpgKey('')).toEqual({ ok: false, problems: ["can't be blank"] });
  });

  it('refuses a corrupted block and a private key', async () => {
    const { publicKey, privateKey } = await armoredKeys();
    // Half of the body is gone, and with it the checksum's agreement.
    const lines = publicKey.trim().split('\n');
    const body = lines.slice(2, -2);
    const corrupted = [...lines.slice(0, 2), ...body.slice(0, Math.ceil(body.length / 2)), ...lines.slice(-2)].join('\n');
    expect(await parseGpgKey(corrupted)).toEqual({ ok: false, problems: ['is invalid'] });
    expect((await parseGpgKey(privateKey)).ok).toBe(false);
  });
});
