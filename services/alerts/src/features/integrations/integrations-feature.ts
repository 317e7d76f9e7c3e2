import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { AlertsService } from '../alerts/alerts-service.ts';
import type { AlertsTier } from './alerts-tier.ts';
import { integrationsEntities } from './integration.entity.ts';
import { integrationsRoutes } from './integrations-routes.ts';
import { IntegrationsService } from './integrations-service.ts';
import { PgIntegrationStore } from './integrations-store.ts';

export { integrationsEntities };

export interface IntegrationsFeature extends Feature {
  integrations: IntegrationsService;
}

/** A project's alert integrations, configured by maintainers and tested by developers. */
export function createIntegrationsFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  alerts: AlertsService;
  tier: AlertsTier;
}): IntegrationsFeature {
  const integrations = new IntegrationsService({ em: deps.em, store: new PgIntegrationStore(deps.em), tier: deps.tier });
  return {
    integrations,
    routes: [createRouter(integrationsRoutes, { access: deps.access, integrations, alerts: deps.alerts, tier: deps.tier })],
  };
}
