import { describe, expect, it } from '@jest/globals';
import { environmentNameProblem, environmentSlug, guessTier } from './environment-naming.ts';

describe('environment slugs', () => {
  it('keeps a name that is already a slug', () => {
    expect(environmentSlug('production')).toBe('production');
    expect(environmentSlug('staging-2')).toBe('staging-2');
  });

  it('shortens and suffixes a name that had to change, as GitLab does', () => {
    // GitLab's own examples (spec/lib/gitlab/slug/environment_spec.rb), whose suffix is the name's hash.
    const suffixed = (name: string, prefix: string) => {
      const slug = environmentSlug(name);
      expect(slug).toMatch(new RegExp(`^${prefix}[a-z0-9]{6}$`));
      return slug;
    };
    suffixed('staging-12345678901234567', 'staging-123456789-');
    suffixed('9-staging-123456789012345', 'env-9-staging-123-');
    suffixed('PRODUCTION', 'production-');
    suffixed('review/1-foo', 'review-1-foo-');
    suffixed('1/foo', 'env-1-foo-');
    suffixed('foo--bin', 'foo-bin-');
    suffixed('*-foo', 'env-foo-');
    expect(environmentSlug('staging-1234567890123456')).toBe('staging-1234567890123456');
    expect(environmentSlug('foo-')).toBe('foo');
    expect(environmentSlug('staging-12345678-')).toBe('staging-12345678');
    expect(environmentSlug('review/a')).not.toBe(environmentSlug('review-a'));
  });
});

describe('environment tiers and names', () => {
  it('guesses the tier from the name', () => {
    expect(guessTier('production')).toBe('production');
    expect(guessTier('live')).toBe('production');
    expect(guessTier('staging')).toBe('staging');
    expect(guessTier('review/fix')).toBe('development');
    expect(guessTier('qa')).toBe('testing');
    expect(guessTier('canary')).toBe('other');
  });

  it('refuses names GitLab refuses', () => {
    expect(environmentNameProblem('review/fix-login')).toBeUndefined();
    expect(environmentNameProblem('/leading')).toBeDefined();
    expect(environmentNameProblem('semi;colon')).toBeDefined();
  });
});
