import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import {
  FeatureFlag,
  FeatureFlagLegacyScope,
  FeatureFlagRevision,
  FeatureFlagScope,
  FeatureFlagsClient,
  FeatureFlagStrategy,
  FeatureFlagUserList,
} from './feature-flag.entity.ts';
import { ClientAnswerChanges } from './client-answer-changes.ts';
import { FeatureFlagsClientService } from './feature-flags-client-service.ts';
import { PgFeatureFlagsClientStore } from './feature-flags-client-store.ts';
import { featureFlagsClientRoutes } from './feature-flags-client-routes.ts';
import { featureFlagsRoutes } from './feature-flags-routes.ts';
import { FeatureFlagsService } from './feature-flags-service.ts';
import { PgFeatureFlagStore } from './feature-flags-store.ts';
import { UserListsService } from './user-lists-service.ts';
import { PgUserListStore } from './user-lists-store.ts';
import { userListsRoutes } from './user-lists-routes.ts';

export const featureFlagsEntities = [
  FeatureFlag,
  FeatureFlagStrategy,
  FeatureFlagScope,
  FeatureFlagLegacyScope,
  FeatureFlagUserList,
  FeatureFlagsClient,
  FeatureFlagRevision,
];

/** What the Unleash client API reads: the flags, the instance ids, and this replica's changes to them. */
export interface FeatureFlagsFeature extends Feature {
  flags: PgFeatureFlagStore;
  clients: PgFeatureFlagsClientStore;
  changes: ClientAnswerChanges;
}

/** Feature flags, their user lists and the project's Unleash instance id. */
export function createFeatureFlagsFeature(deps: { em: EntityManager; access: IdentityAccess }): FeatureFlagsFeature {
  const changes = new ClientAnswerChanges();
  const flags = new PgFeatureFlagStore(deps.em);
  const userListStore = new PgUserListStore(deps.em);
  const clients = new PgFeatureFlagsClientStore(deps.em);
  const featureFlags = new FeatureFlagsService({ em: deps.em, store: flags, userLists: userListStore, changes });
  return {
    flags,
    clients,
    changes,
    routes: [
      createRouter(featureFlagsRoutes, { access: deps.access, featureFlags }),
      createRouter(userListsRoutes, {
        access: deps.access,
        userLists: new UserListsService({ em: deps.em, store: userListStore, changes }),
      }),
      createRouter(featureFlagsClientRoutes, {
        access: deps.access,
        clients: new FeatureFlagsClientService({ em: deps.em, store: clients, changes }),
      }),
    ],
  };
}
