import { createHash } from 'node:crypto';
import type { EnvironmentTier } from './environment.entity.ts';

/**
 * GitLab's environment slug (`Gitlab::Slug::Environment`): lower case letters, digits and dashes,
 * starting with a letter, at most 24 characters; a name that had to change gets a 6-character
 * suffix from its SHA-256, so that different names keep different slugs.
 */
export function environmentSlug(name: string): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-');
  if (slug.length <= 24 && slug === name) return slug.replace(/-$/, '');
  const suffix = BigInt(`0x${createHash('sha256').update(name).digest('hex')}`)
    .toString(36)
    .slice(-6);
  const shortened = slug.slice(0, 17);
  return `${shortened}${shortened.endsWith('-') ? '' : '-'}${suffix}`;
}

/** The tier GitLab guesses from an environment's name when none is given (`Environment#guess_tier`). */
export function guessTier(name: string): EnvironmentTier {
  if (/(dev|review|trunk)/i.test(name)) return 'development';
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing';
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging';
  if (/(pr(o|)d|live)/i.test(name)) return 'production';
  return 'other';
}

/**
 * GitLab's rule for environment names: letters, digits, spaces and `- _ / $ { } .`, not starting
 * or ending with `/`, at most 255 characters.
 */
export function environmentNameProblem(name: string): string | undefined {
  if (name.length > 255) return 'is too long (maximum is 255 characters)';
  if (!/^[a-zA-Z0-9 \-_/${}.]+$/.test(name) || name.startsWith('/') || name.endsWith('/')) {
    return "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";
  }
  return undefined;
}
