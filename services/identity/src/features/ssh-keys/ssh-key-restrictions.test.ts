import { describe, expect, it } from '@jest/globals';
import { DEFAULT_APPLICATION_SETTINGS } from '@platform/admin-client';
import { keyRestrictionProblem } from './ssh-key-restrictions.ts';

const settings = (restrictions: Partial<typeof DEFAULT_APPLICATION_SETTINGS>) => ({ ...DEFAULT_APPLICATION_SETTINGS, ...restrictions });

describe('SSH key restrictions', () => {
  it('allows every key without restrictions', () => {
    expect(keyRestrictionProblem(settings({}), { type: 'rsa', bits: 1024 })).toBeUndefined();
    expect(keyRestrictionProblem(settings({}), { type: 'dsa', bits: 1024 })).toBeUndefined();
  });

  it('refuses a forbidden type naming the allowed ones, as GitLab words it', () => {
    expect(keyRestrictionProblem(settings({ dsaKeyRestriction: -1 }), { type: 'dsa', bits: 1024 })).toBe(
      'type is forbidden. Must be RSA, ECDSA, or ED25519',
    );
    expect(keyRestrictionProblem(settings({ dsaKeyRestriction: -1, ecdsaKeyRestriction: -1 }), { type: 'ecdsa', bits: 256 })).toBe(
      'type is forbidden. Must be RSA or ED25519',
    );
  });

  it('refuses a key smaller than the minimum of its type', () => {
    expect(keyRestrictionProblem(settings({ rsaKeyRestriction: 3072 }), { type: 'rsa', bits: 2048 })).toBe('must be at least 3072 bits');
    expect(keyRestrictionProblem(settings({ rsaKeyRestriction: 3072 }), { type: 'rsa', bits: 4096 })).toBeUndefined();
    expect(keyRestrictionProblem(settings({ rsaKeyRestriction: 3072 }), { type: 'ed25519', bits: 256 })).toBeUndefined();
  });
});
