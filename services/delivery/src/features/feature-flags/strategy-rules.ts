import type { StrategyName } from './feature-flag.entity.ts';

/** A strategy as the API describes it, before it is stored. */
export interface StrategyInput {
  name: string;
  parameters: Record<string, unknown>;
  userListId?: number | undefined;
  scopes: string[];
}

const GROUP_ID = /^[a-z]{1,32}$/;
const PERCENTAGE = /^([0-9]|[1-9][0-9]|100)$/;
const STICKINESS = ['default', 'userId', 'sessionId', 'random'];

const hasExactly = (parameters: Record<string, unknown>, keys: string[]) =>
  Object.keys(parameters).length === keys.length && keys.every((key) => typeof parameters[key] === 'string');

/** `userIds`/`user_xids`: unique, comma-separated, none blank, none longer than 256 characters. */
export function validUserIds(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const ids = value.split(',');
  return ids.every((id) => id.length > 0 && id.length <= 256 && id.trim() === id) && new Set(ids).size === ids.length;
}

/**
 * What GitLab's strategy validations say about a strategy (`Operations::FeatureFlags::Strategy`),
 * as full messages; empty when it is valid.
 */
export function strategyProblems(strategy: StrategyInput): string[] {
  const { parameters } = strategy;
  const problems: string[] = [];
  switch (strategy.name as StrategyName) {
    case 'default':
      if (Object.keys(parameters).length > 0) problems.push('Strategies parameters are invalid');
      break;
    case 'gradualRolloutUserId':
      if (!hasExactly(parameters, ['groupId', 'percentage'])) problems.push('Strategies parameters are invalid');
      else {
        if (!PERCENTAGE.test(parameters.percentage as string))
          problems.push('Strategies parameters percentage must be a string between 0 and 100 inclusive');
        if (!GROUP_ID.test(parameters.groupId as string)) problems.push('Strategies parameters groupId parameter is invalid');
      }
      break;
    case 'flexibleRollout':
      if (!hasExactly(parameters, ['groupId', 'rollout', 'stickiness'])) problems.push('Strategies parameters are invalid');
      else {
        if (!STICKINESS.includes(parameters.stickiness as string))
          problems.push('Strategies parameters stickiness parameter must be default, userId, sessionId, or random');
        if (!GROUP_ID.test(parameters.groupId as string)) problems.push('Strategies parameters groupId parameter is invalid');
        if (!PERCENTAGE.test(parameters.rollout as string))
          problems.push('Strategies parameters rollout must be a string between 0 and 100 inclusive');
      }
      break;
    case 'userWithId':
      if (!hasExactly(parameters, ['userIds'])) problems.push('Strategies parameters are invalid');
      else if (!validUserIds(parameters.userIds)) {
        problems.push('Strategies parameters userIds must be a string of unique comma separated values each 256 characters or less');
      }
      break;
    case 'svcUserList':
      if (Object.keys(parameters).length > 0) problems.push('Strategies parameters are invalid');
      if (strategy.userListId === undefined) problems.push('Strategies user list must belong to the same project');
      break;
    default:
      problems.push('Strategies name strategy name is invalid');
  }
  if (strategy.name !== 'svcUserList' && strategy.userListId !== undefined) problems.push('Strategies user list must not be specified');
  const scopes = strategy.scopes;
  if (scopes.some((scope) => scope.length === 0)) problems.push("Strategies scopes environment scope can't be blank");
  if (new Set(scopes).size !== scopes.length) problems.push('Strategies scopes environment scope has already been taken');
  return problems;
}

/**
 * GitLab's feature flag names: 2 to 63 characters, lower case letters, digits, `_` and `-`, from
 * a letter, not ending in `_` or `-`. Every rule broken is named, as its model validations do.
 */
export function featureFlagNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length < 2) problems.push('Name is too short (minimum is 2 characters)');
  if (name.length > 63) problems.push('Name is too long (maximum is 63 characters)');
  if (!/^[a-z]([-_a-z0-9]*[a-z0-9])?$/.test(name)) {
    problems.push("Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'");
  }
  return problems;
}

/**
 * Whether a strategy scope applies to an environment, as GitLab matches them: `*` everywhere, a
 * name exactly, a glob (`review/*`) any environment it matches.
 */
export function scopeMatches(scope: string, environment: string): boolean {
  if (scope === '*' || scope === environment) return true;
  if (!scope.includes('*')) return false;
  const pattern = scope
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(environment);
}
