import { describe, expect, it } from '@jest/globals';
import type { GitBranch } from '../repositories/git-repository.ts';
import { matchesSearch, sortBranches } from './branch-search.ts';

describe('matchesSearch', () => {
  it.each([
    ['feature/login', 'LOGIN', true],
    ['feature/login', '^feature', true],
    ['hotfix/feature', '^feature', false],
    ['feature/login', 'login$', true],
    ['feature/login-page', 'login$', false],
    ['main', '^main$', true],
    ['mainline', '^main$', false],
    ['anything', undefined, true],
  ])('%s against %s: %s', (name, search, expected) => {
    expect(matchesSearch(name, search)).toBe(expected);
  });
});

describe('sortBranches', () => {
  const branch = (name: string, committedDate: string) => ({ name, commit: { committedDate } }) as GitBranch;
  const branches = [branch('b', '2026-01-02T00:00:00Z'), branch('a', '2026-01-03T00:00:00Z'), branch('c', '2026-01-01T00:00:00Z')];

  it('sorts by name, or by the head commit date either way', () => {
    expect(sortBranches(branches, 'name_asc').map((item) => item.name)).toEqual(['a', 'b', 'c']);
    expect(sortBranches(branches, 'updated_asc').map((item) => item.name)).toEqual(['c', 'b', 'a']);
    expect(sortBranches(branches, 'updated_desc').map((item) => item.name)).toEqual(['a', 'b', 'c']);
  });
});
