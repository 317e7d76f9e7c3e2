import { describe, expect, it } from '@jest/globals';
import { featureFlagNameProblem, scopeMatches, strategyProblems, validUserIds } from './strategy-rules.ts';

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
    expect(featureFlagNameProblem('new_ui-2')).toBeUndefined();
    expect(featureFlagNameProblem('New')).toBeDefined();
    expect(featureFlagNameProblem('trailing_')).toBeDefined();
    expect(featureFlagNameProblem('1st')).toBeDefined();
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
