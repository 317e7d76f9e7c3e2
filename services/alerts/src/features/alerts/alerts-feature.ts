import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { alertsEntities } from './alert.entity.ts';
import { alertsRoutes } from './alerts-routes.ts';
import { AlertsService } from './alerts-service.ts';
import { PgAlertStore } from './alerts-store.ts';
import { incidentsRoutes } from './incidents-routes.ts';

export { alertsEntities };

export interface AlertsFeature extends Feature {
  alerts: AlertsService;
}

/** Alerts and their incidents: what intake opens, groups and resolves, and what users read and update. */
export function createAlertsFeature(deps: { em: EntityManager; access: IdentityAccess; grouping: boolean }): AlertsFeature {
  const alerts = new AlertsService({ em: deps.em, store: new PgAlertStore(deps.em), grouping: deps.grouping });
  const routeDeps = { access: deps.access, alerts };
  return { alerts, routes: [createRouter(alertsRoutes, routeDeps), createRouter(incidentsRoutes, routeDeps)] };
}
