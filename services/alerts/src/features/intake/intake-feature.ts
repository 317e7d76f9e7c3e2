import type { Orm } from '@platform/db';
import type { Feature } from '@platform/service';
import type { AlertsService } from '../alerts/alerts-service.ts';
import type { IntegrationsService } from '../integrations/integrations-service.ts';
import { alertIntakeRoutes } from './alert-intake-router.ts';
import type { ProjectLookup } from './project-lookup.ts';

/** The endpoints monitoring tools post alerts to, authenticated by an integration's key. */
export function createIntakeFeature(deps: {
  orm: Orm;
  projects: ProjectLookup;
  integrations: IntegrationsService;
  alerts: AlertsService;
}): Feature {
  return {
    streamingRoutes: [alertIntakeRoutes(deps)],
    stop: () => deps.projects.close(),
  };
}
