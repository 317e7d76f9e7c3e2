import { baseUrlOf, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { AlertsService } from './alerts-service.ts';
import { incidentView } from './alerts-views.ts';
import { incidentListQuery, projectIncidentIssuesQuery } from './alerts.schemas.ts';

export interface IncidentsRouteDeps {
  access: IdentityAccess;
  alerts: AlertsService;
}

const route = routesOf<IncidentsRouteDeps>('alerts');

/**
 * A project's incidents, newest first: issues of type `incident`, one opened per new alert. The
 * issues list serves them only when asked for that type (the gateway routes only such requests here).
 */
export const incidentsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/alert_management/incidents',
    access: 'anonymous',
    scope: 'read_api',
    input: incidentListQuery,
    handle: async ({ caller, input, deps, window, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const page = await deps.alerts.listIncidents(project.id, { state: input.state }, window);
      const options = { baseUrl: baseUrlOf(request), projectWebUrl: project.webUrl };
      return { ...page, items: page.items.map((incident) => incidentView(incident, options)) };
    },
  }),

  route.list({
    path: '/api/v4/projects/:id/issues',
    access: 'anonymous',
    scope: 'read_api',
    input: projectIncidentIssuesQuery,
    handle: async ({ caller, input, deps, window, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const state = input.state === 'all' ? undefined : input.state;
      const page = await deps.alerts.listIncidents(project.id, { state }, window);
      const options = { baseUrl: baseUrlOf(request), projectWebUrl: project.webUrl };
      return { ...page, items: page.items.map((incident) => incidentView(incident, options)) };
    },
  }),
];
