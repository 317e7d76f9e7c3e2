import type { EventFeed } from '@platform/events';
import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { ClientAnswerChanges } from '../feature-flags/client-answer-changes.ts';
import type { PgFeatureFlagsClientStore } from '../feature-flags/feature-flags-client-store.ts';
import type { PgFeatureFlagStore } from '../feature-flags/feature-flags-store.ts';
import { ClientFeaturesCache } from './client-features-cache.ts';
import { followClientAnswerEvents } from './unleash-client-events.ts';
import { UnleashClientStates } from './unleash-client-states.ts';
import { unleashRoutes } from './unleash-routes.ts';

/**
 * The Unleash client API over the project's feature flags, answered from memory between changes:
 * a change made on this replica is forgotten before its request answers, one made on another
 * when its event arrives.
 */
export function createUnleashFeature(deps: {
  clients: PgFeatureFlagsClientStore;
  flags: PgFeatureFlagStore;
  changes: ClientAnswerChanges;
  kafka: { brokers: string[]; topicPrefix: string };
  logger: Logger;
}): Feature {
  let feed: EventFeed | undefined;
  const states = new UnleashClientStates({
    read: (projectId) => deps.clients.clientStateOf(projectId),
    followed: () => feed?.isLive() ?? false,
  });
  deps.changes.onChange((projectId) => states.forget(projectId));
  return {
    routes: [createRouter(unleashRoutes, { flags: deps.flags, states, answers: new ClientFeaturesCache() })],
    start: async () => {
      feed = followClientAnswerEvents({ ...deps.kafka, logger: deps.logger, forget: (projectId) => states.forget(projectId) });
    },
    stop: () => feed?.stop(),
    // Reported, not a readiness condition: without the feed every poll reads its project's state.
    readinessChecks: { unleashClientEvents: async () => (feed?.isLive() ? 'live' : 'lagging') },
  };
}
