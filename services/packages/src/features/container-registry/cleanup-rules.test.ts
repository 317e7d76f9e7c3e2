import { describe, expect, it } from '@jest/globals';
import { compileAnchored, parseHumanDuration, tagsToDelete, type CleanupCandidate } from './cleanup-rules.ts';

const now = new Date('2026-11-24T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
const tags: CleanupCandidate[] = [
  { name: 'latest', createdAt: daysAgo(30) },
  { name: 'v1', createdAt: daysAgo(10) },
  { name: 'v2', createdAt: daysAgo(5) },
  { name: 'v3', createdAt: daysAgo(1) },
  { name: 'stable', createdAt: daysAgo(20) },
  { name: 'dev-a', createdAt: daysAgo(8) },
  { name: 'dev-b', createdAt: null },
];

describe('tagsToDelete', () => {
  it('deletes what the regex matches as a whole, never latest', () => {
    expect(tagsToDelete(tags, { nameRegexDelete: '.*' }, now)).toEqual(['dev-a', 'dev-b', 'stable', 'v1', 'v2', 'v3']);
    // Anchored: `v` alone matches no tag; `v\d` matches only whole names.
    expect(tagsToDelete(tags, { nameRegexDelete: 'v' }, now)).toEqual([]);
    expect(tagsToDelete(tags, { nameRegexDelete: 'v\\d' }, now)).toEqual(['v1', 'v2', 'v3']);
    expect(tagsToDelete(tags, { nameRegexDelete: 'lat.*' }, now)).toEqual([]);
  });

  it('spares what the keep regex matches, which overrides the delete regex', () => {
    expect(tagsToDelete(tags, { nameRegexDelete: '.*', nameRegexKeep: 'v.*|stable' }, now)).toEqual(['dev-a', 'dev-b']);
    expect(tagsToDelete(tags, { nameRegexDelete: 'v.*', nameRegexKeep: '.*' }, now)).toEqual([]);
  });

  it('keeps the keep_n newest of the matching tags by image creation', () => {
    expect(tagsToDelete(tags, { nameRegexDelete: 'v.*', keepN: 1 }, now)).toEqual(['v1', 'v2']);
    expect(tagsToDelete(tags, { nameRegexDelete: 'v.*', keepN: 0 }, now)).toEqual(['v1', 'v2', 'v3']);
    expect(tagsToDelete(tags, { nameRegexDelete: 'v.*', keepN: 5 }, now)).toEqual([]);
    // A tag without a creation date is the oldest.
    expect(tagsToDelete(tags, { nameRegexDelete: 'dev-.*', keepN: 1 }, now)).toEqual(['dev-b']);
  });

  it('with older_than deletes only older tags, after keep_n took the newest', () => {
    expect(tagsToDelete(tags, { nameRegexDelete: '.*', olderThanMs: 7 * 86_400_000 }, now)).toEqual(['dev-a', 'stable', 'v1']);
    expect(tagsToDelete(tags, { nameRegexDelete: 'v.*', keepN: 1, olderThanMs: 7 * 86_400_000 }, now)).toEqual(['v1']);
  });
});

describe('compileAnchored', () => {
  it('refuses what RE2 cannot compile, including backreferences and lookarounds', () => {
    expect(() => compileAnchored('(')).toThrow();
    expect(() => compileAnchored('(a)\\1')).toThrow();
    expect(() => compileAnchored('a(?=b)')).toThrow();
    expect(compileAnchored('v[0-9]+').matches('v10')).toBe(true);
  });
});

describe('parseHumanDuration', () => {
  it('reads the durations GitLab documents for older_than', () => {
    expect(parseHumanDuration('1h')).toBe(3_600_000);
    expect(parseHumanDuration('1d')).toBe(86_400_000);
    expect(parseHumanDuration('2 days')).toBe(2 * 86_400_000);
    expect(parseHumanDuration('1month')).toBe(30 * 86_400_000);
    expect(parseHumanDuration('1 week 2 days')).toBe(9 * 86_400_000);
    expect(parseHumanDuration('90')).toBe(90_000);
  });

  it('answers undefined for what is no duration', () => {
    expect(parseHumanDuration('soon')).toBeUndefined();
    expect(parseHumanDuration('1 fortnight')).toBeUndefined();
    expect(parseHumanDuration('')).toBeUndefined();
    expect(parseHumanDuration('0d')).toBeUndefined();
  });
});
