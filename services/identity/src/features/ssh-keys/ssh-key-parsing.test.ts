import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import sshpk from 'sshpk';
import { parseSshKey, publishableKey } from './ssh-key-parsing.ts';

function opensshLine(type: 'ed25519' | 'rsa', options: { bits?: number; comment?: string } = {}): string {
  const { publicKey } =
    type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 }) : generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  key.comment = options.comment ?? 'ada@laptop';
  return key.toString('ssh');
}

describe('parseSshKey', () => {
  it('reads an ed25519 key and computes its fingerprints', async () => {
    const line = opensshLine('ed25519');
    const parsed = await parseSshKey(`  ${line}\n`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.key.algorithm).toBe('ssh-ed25519');
    expect(parsed.key.line).toBe(line);
    expect(parsed.key.fingerprintSha256).toBe(sshpk.parseKey(line, 'ssh').fingerprint('sha256').toString().slice('SHA256:'.length));
    expect(parsed.key.fingerprintMd5).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
  });

  it('reads an RSA key', async () => {
    const parsed = await parseSshKey(opensshLine('rsa'));
    expect(parsed.ok && parsed.key.algorithm).toBe('ssh-rsa');
  });

  it('refuses malformed, truncated, multi-line, blank, oversized and private keys', async () => {
    const line = opensshLine('ed25519');
    expect(await parseSshKey('not a key')).toEqual({ ok: false, problems: ['is invalid'] });
    expect(await parseSshKey(line.slice(0, 40))).toEqual({ ok: false, problems: ['is invalid'] });
    expect(await parseSshKey(line.replace(' ', '\n'))).toEqual({ ok: false, problems: ['should be a single line'] });
    expect(await parseSshKey('   ')).toEqual({ ok: false, problems: ["can't be blank"] });
    expect(await parseSshKey(`ssh-rsa ${'A'.repeat(6000)}`)).toEqual({ ok: false, problems: ['is too long (maximum is 5000 characters)'] });
    const { privateKey } = generateKeyPairSync('ed25519');
    expect((await parseSshKey(String(privateKey.export({ type: 'pkcs8', format: 'pem' })))).ok).toBe(false);
  });

  it('refuses RSA keys shorter than 1024 bits', async () => {
    expect(await parseSshKey(opensshLine('rsa', { bits: 768 }))).toEqual({ ok: false, problems: ['must be at least 1024 bits'] });
  });
});

describe('publishableKey', () => {
  it('replaces the comment with the owner and host', () => {
    const line = opensshLine('ed25519', { comment: 'secret@example.com' });
    const published = publishableKey(line, { ownerName: 'Ada Lovelace', host: 'platform.test' });
    expect(published).toBe(`${line.split(' ').slice(0, 2).join(' ')} Ada Lovelace (platform.test)`);
    expect(published).not.toContain('secret@example.com');
  });
});
