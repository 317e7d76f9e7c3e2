import { describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { libtrustKeyId, parseScopes } from './registry-token.ts';

describe('registry token scopes', () => {
  it('reads repository scopes, several per parameter, and ignores anything else', () => {
    expect(parseScopes(['repository:group/app:pull,push', 'repository:group/app/web:pull registry:catalog:*', 'nonsense'])).toEqual([
      { type: 'repository', name: 'group/app', actions: ['pull', 'push'] },
      { type: 'repository', name: 'group/app/web', actions: ['pull'] },
    ]);
  });

  it('keeps a name with a port-like colon whole, splitting only the type and the actions', () => {
    expect(parseScopes(['repository:a/b:c:pull'])).toEqual([{ type: 'repository', name: 'a/b:c', actions: ['pull'] }]);
  });
});

describe('libtrustKeyId', () => {
  it('is twelve colon-separated groups of four base32 characters, stable for a key', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const id = libtrustKeyId(publicKey);
    expect(id).toMatch(/^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/);
    expect(libtrustKeyId(publicKey)).toBe(id);
  });
});
