import type { ApplicationSettings } from '@platform/admin-client';

/** The key types administrators may restrict, in GitLab's order. */
export const RESTRICTED_KEY_TYPES = ['rsa', 'dsa', 'ecdsa', 'ed25519'] as const;
export type RestrictedKeyType = (typeof RESTRICTED_KEY_TYPES)[number];

/** A restriction of -1 refuses the type outright. */
const FORBIDDEN = -1;

const restrictionOf = (settings: ApplicationSettings, type: RestrictedKeyType): number =>
  ({
    rsa: settings.rsaKeyRestriction,
    dsa: settings.dsaKeyRestriction,
    ecdsa: settings.ecdsaKeyRestriction,
    ed25519: settings.ed25519KeyRestriction,
  })[type];

/** `RSA, ECDSA, or ED25519`, as GitLab's exclusive sentences read. */
function exclusiveSentence(words: string[]): string {
  if (words.length <= 2) return words.join(' or ');
  return `${words.slice(0, -1).join(', ')}, or ${words.at(-1)}`;
}

/**
 * What the instance's key restrictions say of a key of `type` and `bits`, in GitLab's words:
 * `type is forbidden. Must be RSA, ECDSA, or ED25519`, or `must be at least 2048 bits`.
 */
export function keyRestrictionProblem(settings: ApplicationSettings, key: { type: RestrictedKeyType; bits: number }): string | undefined {
  const restriction = restrictionOf(settings, key.type);
  if (restriction === FORBIDDEN) {
    const allowed = RESTRICTED_KEY_TYPES.filter((type) => restrictionOf(settings, type) !== FORBIDDEN).map((type) => type.toUpperCase());
    return `type is forbidden. Must be ${exclusiveSentence(allowed)}`;
  }
  if (key.bits < restriction) return `must be at least ${restriction} bits`;
  return undefined;
}
