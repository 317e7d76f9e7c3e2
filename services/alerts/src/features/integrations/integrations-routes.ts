import { InputError } from '@platform/errors';
import { baseUrlOf, routesOf } from '@platform/http';
import type { Request } from 'express';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import { genericAlert, prometheusAlerts } from '../alerts/alert-payload.ts';
import type { AlertsService } from '../alerts/alerts-service.ts';
import type { AlertsTier } from './alerts-tier.ts';
import type { AlertIntegration } from './integration.entity.ts';
import type { IntegrationsService } from './integrations-service.ts';
import { integrationView } from './integrations-views.ts';
import {
  createIntegrationInput,
  integrationParams,
  projectParams,
  testIntegrationInput,
  updateIntegrationInput,
} from './integrations.schemas.ts';

export interface IntegrationsRouteDeps {
  access: IdentityAccess;
  integrations: IntegrationsService;
  alerts: AlertsService;
  tier: AlertsTier;
}

const route = routesOf<IntegrationsRouteDeps>('alerts');

const view = (options: { integration: AlertIntegration; project: ProjectAccess; request: Request; tier: AlertsTier; key?: string }) =>
  integrationView(options.integration, {
    baseUrl: baseUrlOf(options.request),
    projectPath: options.project.pathWithNamespace,
    tier: options.tier,
    ...(options.key ? { key: options.key } : {}),
  });

/** A sample payload given as a JSON string (a form field) or as an object (a JSON body). */
function samplePayload(payload: string | Record<string, unknown>): unknown {
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(payload);
  } catch {
    throw new InputError('payload must be valid JSON');
  }
}

/** A project's alert integrations: HTTP endpoints and the Prometheus endpoint, configured by maintainers. */
export const integrationsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/alert_management/http_integrations',
    access: 'user',
    scope: 'read_api',
    input: projectParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.MAINTAINER });
      const integrations = await deps.integrations.list(project);
      return integrations.map((integration) => view({ integration, project, request, tier: deps.tier }));
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/alert_management/http_integrations',
    access: 'user',
    scope: 'api',
    status: 201,
    input: createIntegrationInput,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.MAINTAINER });
      const created = await deps.integrations.create(project, caller, { name: input.name, type: input.type, active: input.active });
      return view({ ...created, project, request, tier: deps.tier });
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/alert_management/http_integrations/:integration_id',
    access: 'user',
    scope: 'api',
    input: updateIntegrationInput,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.MAINTAINER });
      const integration = await deps.integrations.update(project, caller, {
        id: input.integration_id,
        name: input.name,
        active: input.active,
      });
      return view({ integration, project, request, tier: deps.tier });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/alert_management/http_integrations/:integration_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: integrationParams,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.MAINTAINER });
      await deps.integrations.delete(project, caller, input.integration_id);
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/alert_management/http_integrations/:integration_id/reset_token',
    access: 'user',
    scope: 'api',
    input: integrationParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.MAINTAINER });
      const reset = await deps.integrations.resetToken(project, caller, input.integration_id);
      return view({ ...reset, project, request, tier: deps.tier });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/alert_management/http_integrations/:integration_id/test',
    access: 'user',
    scope: 'api',
    input: testIntegrationInput,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      const integration = await deps.integrations.get(project, input.integration_id);
      const payload = samplePayload(input.payload);
      const receivedAt = new Date();
      const alerts =
        integration.integrationType === 'prometheus' ? prometheusAlerts(payload, receivedAt) : [genericAlert(payload, receivedAt)];
      await deps.alerts.receive({
        projectId: project.id,
        source: { integrationId: integration.id, type: integration.integrationType },
        alerts,
        caller,
      });
      return {};
    },
  }),
];
