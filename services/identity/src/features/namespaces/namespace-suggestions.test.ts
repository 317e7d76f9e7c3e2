import { describe, expect, it } from '@jest/globals';
import { pathSlug, suggestionCandidates } from './namespace-suggestions.ts';

describe('pathSlug', () => {
  it('keeps what a path allows, as GitLab cleans one', () => {
    expect(pathSlug('my-group')).toBe('my-group');
    expect(pathSlug('My Group!')).toBe('MyGroup');
    expect(pathSlug('someone@example.com')).toBe('someone');
    expect(pathSlug('--repo.git.atom.')).toBe('repo');
    expect(pathSlug('!!!')).toBe('blank');
  });
});

describe('suggestionCandidates', () => {
  it('tries the slug, then 1 to 4, then a number of the millisecond, minute and ISO week', () => {
    // 2026-11-26 is in ISO week 48.
    const now = new Date('2026-11-26T20:07:00.045Z');
    expect(suggestionCandidates('team', now, 7)).toEqual(['team', 'team1', 'team2', 'team3', 'team4', 'team450748', 'team450749']);
  });
});
