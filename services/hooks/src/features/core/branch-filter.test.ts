import { describe, expect, it } from '@jest/globals';
import { branchMatches, compileRegexFilter } from './branch-filter.ts';

describe('push events branch filters', () => {
  it('match branches by name, wildcard or regular expression', () => {
    expect(branchMatches({ strategy: 'wildcard', filter: '', branch: 'any' })).toBe(true);
    expect(branchMatches({ strategy: 'wildcard', filter: 'main', branch: 'main' })).toBe(true);
    expect(branchMatches({ strategy: 'wildcard', filter: 'main', branch: 'maint' })).toBe(false);
    expect(branchMatches({ strategy: 'wildcard', filter: 'release/*', branch: 'release/1.0/hotfix' })).toBe(true);
    expect(branchMatches({ strategy: 'wildcard', filter: 'feature-*.x', branch: 'feature-2.x' })).toBe(true);
    expect(branchMatches({ strategy: 'wildcard', filter: 'feature-*.x', branch: 'feature-2x' })).toBe(false);
    expect(branchMatches({ strategy: 'regex', filter: '^(main|stable-\\d+)$', branch: 'stable-12' })).toBe(true);
    expect(branchMatches({ strategy: 'regex', filter: '^(main|stable-\\d+)$', branch: 'feature' })).toBe(false);
    expect(branchMatches({ strategy: 'all_branches', filter: 'main', branch: 'feature' })).toBe(true);
  });

  it('tell an invalid regular expression, and one RE2 does not run (backreferences, lookarounds)', () => {
    expect(compileRegexFilter('(unclosed')).toBeUndefined();
    expect(compileRegexFilter('^(a)\\1$')).toBeUndefined();
    expect(compileRegexFilter('^(?=main)')).toBeUndefined();
    expect(compileRegexFilter('^main$')?.test('main')).toBe(true);
  });

  it('match a pattern that backtracks catastrophically in linear time', () => {
    const started = performance.now();
    const branch = `${'a'.repeat(100_000)}!`;
    expect(branchMatches({ strategy: 'regex', filter: '^(a+)+$', branch })).toBe(false);
    expect(branchMatches({ strategy: 'regex', filter: '^(a|aa)+$', branch })).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
