import type { DetailedFlag } from '../feature-flags/feature-flags-store.ts';
import { scopeMatches } from '../feature-flags/strategy-rules.ts';

/** One strategy as Unleash SDKs read it: a user list becomes `userWithId` with the list's users. */
function unleashStrategy(strategy: DetailedFlag['strategies'][number]) {
  if (strategy.strategy.name === 'svcUserList') {
    return { name: 'userWithId', parameters: { userIds: strategy.userList?.userXids ?? '' } };
  }
  return { name: strategy.strategy.name, parameters: strategy.strategy.parameters };
}

/**
 * GitLab's answer to an Unleash client in `environment` (its app name): each new-version flag
 * with a strategy scoped to that environment, with only those strategies; none without an
 * environment. Disabled flags are listed, `enabled: false`.
 */
export function unleashFeatures(flags: DetailedFlag[], environment: string | undefined) {
  const features = environment
    ? flags.flatMap((detail) => {
        const strategies = detail.strategies.filter((strategy) =>
          strategy.scopes.some((scope) => scopeMatches(scope.environmentScope, environment)),
        );
        if (strategies.length === 0) return [];
        return [
          {
            name: detail.flag.name,
            ...(detail.flag.description === null ? {} : { description: detail.flag.description }),
            enabled: detail.flag.active,
            strategies: strategies.map(unleashStrategy),
          },
        ];
      })
    : [];
  return { version: 1, features };
}
