import { describe, expect, it } from '@jest/globals';
import { featureFlagNameProblems, scopeMatches, strategyProblems, validUserIds } from './strategy-rules.ts';

const strategy = (name: string, parameters: Record<string, unknown>, extra: { userListId?: number; scopes?: string[] } = {}) =>
  strategyProblems({ name, parameters, scopes: extra.scopes ?? ['*'], userListId: extra.userListId });

describe('strategy validation', () => {
  it('accepts every strategy type with its parameters', () => {
    expect(strategy('default', {})).toEqual([]);
    expect(strategy('gradualRolloutUserId', { groupId: 'default', percentage: '50' })).toEqual([]);
    expect(strategy('flexibleRollout', { groupId: 'default', rollout: '100', stickiness: 'userId' })).toEqual([]);
    expect(strategy('userWithId', { userIds: 'ada,grace' })).toEqual([]);
    expect(strategy('svcUserList', {}, { userListId: 3 })).toEqual([]);
  });

  it('refuses what GitLab refuses', () => {
    expect(strategy('default', { x: '1' })).toEqual(['Strategies parameters are invalid']);
    expect(strategy('gradualRolloutUserId', { groupId: 'default', percentage: '101' })).toEqual([
      'Strategies parameters percentage must be a string between 0 and 100 inclusive',
    ]);
    expect(strategy('gradualRolloutUserId', { groupId: 'default', percentage: 50 })).toEqual(['Strategies parameters are invalid']);
    expect(strategy('gradualRolloutUserId', { groupId: 'Bad1', percentage: '5' })).toEqual([
      'Strategies parameters groupId parameter is invalid',
    ]);
    expect(strategy('flexibleRollout', { groupId: 'default', rollout: '5', stickiness: 'ip' })).toEqual([
      'Strategies parameters stickiness parameter must be default, userId, sessionId, or random',
    ]);
    expect(strategy('userWithId', { userIds: 'ada,,grace' })).toHaveLength(1);
    expect(strategy('svcUserList', {})).toEqual(['Strategies user list must belong to the same project']);
    expect(strategy('default', {}, { userListId: 3 })).toEqual(['Strategies user list must not be specified']);
    expect(strategy('gitlabUserList', {})).toEqual(['Strategies name strategy name is invalid']);
    expect(strategy('default', {}, { scopes: ['production', 'production'] })).toEqual([
      'Strategies scopes environment scope has already been taken',
    ]);
  });

  it('checks user id lists', () => {
    expect(validUserIds('a,b,c')).toBe(true);
    expect(validUserIds('a, b')).toBe(false);
    expect(validUserIds('a,a')).toBe(false);
    expect(validUserIds('x'.repeat(257))).toBe(false);
  });
});

describe('names and scopes', () => {
  it('takes the names GitLab takes', () => {
    const pattern =
      "Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'";
    expect(featureFlagNameProblems('new_ui-2')).toEqual([]);
    expect(featureFlagNameProblems('ab')).toEqual([]);
    expect(featureFlagNameProblems(`a${'b'.repeat(62)}`)).toEqual([]);
    expect(featureFlagNameProblems('New')).toEqual([pattern]);
    expect(featureFlagNameProblems('trailing_')).toEqual([pattern]);
    expect(featureFlagNameProblems('1st')).toEqual([pattern]);
    expect(featureFlagNameProblems('a')).toEqual(['Name is too short (minimum is 2 characters)']);
    expect(featureFlagNameProblems('A')).toEqual(['Name is too short (minimum is 2 characters)', pattern]);
    expect(featureFlagNameProblems(`a${'b'.repeat(63)}`)).toEqual(['Name is too long (maximum is 63 characters)']);
  });

  it('matches environments as GitLab does', () => {
    expect(scopeMatches('*', 'production')).toBe(true);
    expect(scopeMatches('production', 'production')).toBe(true);
    expect(scopeMatches('production', 'staging')).toBe(false);
    expect(scopeMatches('review/*', 'review/fix-1')).toBe(true);
    expect(scopeMatches('review/*', 'reviewer')).toBe(false);
    expect(scopeMatches('a.b', 'axb')).toBe(false);
  });
});
