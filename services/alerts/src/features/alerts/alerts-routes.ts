import { routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { AlertsService } from './alerts-service.ts';
import { ALERT_ORDERS } from './alerts-store.ts';
import { alertView } from './alerts-views.ts';
import { alertListQuery, alertParams, updateAlertInput } from './alerts.schemas.ts';

export interface AlertsRouteDeps {
  access: IdentityAccess;
  alerts: AlertsService;
}

const route = routesOf<AlertsRouteDeps>('alerts');

/** A project's alerts: reporters read them, developers change their status. */
export const alertsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/alert_management/alerts',
    access: 'anonymous',
    scope: 'read_api',
    input: alertListQuery,
    order: { by: ALERT_ORDERS, default: 'created_at', sort: 'desc' },
    handle: async ({ caller, input, deps, order, window }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const statuses = input.status === undefined ? undefined : [input.status].flat();
      const page = await deps.alerts.list(project.id, { statuses, search: input.search }, { orderBy: order.by, sort: order.sort, window });
      return { ...page, items: page.items.map(({ alert, incident }) => alertView(alert, incident)) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/alert_management/alerts/:alert_iid',
    access: 'anonymous',
    scope: 'read_api',
    input: alertParams,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const { alert, incident } = await deps.alerts.get(project.id, input.alert_iid);
      return alertView(alert, incident);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/alert_management/alerts/:alert_iid',
    access: 'user',
    scope: 'api',
    input: updateAlertInput,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      const { alert, incident } = await deps.alerts.updateStatus({
        projectId: project.id,
        iid: input.alert_iid,
        status: input.status,
        caller,
      });
      return alertView(alert, incident);
    },
  }),
];
