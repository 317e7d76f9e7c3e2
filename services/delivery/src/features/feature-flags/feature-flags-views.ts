import type { FeatureFlagLegacyScope, FeatureFlagUserList } from './feature-flag.entity.ts';
import type { DetailedFlag, DetailedStrategy } from './feature-flags-store.ts';

/** A user list as a `svcUserList` strategy embeds it. */
export function basicUserListView(list: FeatureFlagUserList) {
  return { id: list.id, iid: list.iid, name: list.name, user_xids: list.userXids };
}

/** GitLab's user list, as its own endpoints show it. */
export function userListView(list: FeatureFlagUserList) {
  return {
    ...basicUserListView(list),
    project_id: list.projectId,
    created_at: list.createdAt.toISOString(),
    updated_at: list.updatedAt.toISOString(),
  };
}

function strategyView({ strategy, scopes, userList }: DetailedStrategy) {
  return {
    id: strategy.id,
    name: strategy.name,
    parameters: strategy.parameters,
    scopes: scopes.map((scope) => ({ id: scope.id, environment_scope: scope.environmentScope })),
    ...(userList ? { user_list: basicUserListView(userList) } : {}),
  };
}

function legacyScopeView(scope: FeatureFlagLegacyScope) {
  return {
    id: scope.id,
    environment_scope: scope.environmentScope,
    active: scope.active,
    created_at: scope.createdAt.toISOString(),
    updated_at: scope.updatedAt.toISOString(),
    strategies: scope.strategies,
  };
}

/** GitLab's feature flag: `scopes` are a legacy flag's, `strategies` a new-version flag's. */
export function featureFlagView({ flag, strategies, legacyScopes }: DetailedFlag) {
  return {
    name: flag.name,
    description: flag.description,
    active: flag.active,
    version: flag.version,
    created_at: flag.createdAt.toISOString(),
    updated_at: flag.updatedAt.toISOString(),
    scopes: legacyScopes.map(legacyScopeView),
    strategies: strategies.map(strategyView),
  };
}
