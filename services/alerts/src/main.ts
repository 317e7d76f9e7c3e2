/** Composition root of the alerts service: alert integrations, intake, alerts and incidents. */
import { runService, type ServiceDefinition } from '@platform/service';
import { ALERTS_TOPIC } from '@platform/alerts-client';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { readConfig, type AlertsConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { alertsEntities, createAlertsFeature } from './features/alerts/alerts-feature.ts';
import { createIntegrationsFeature, integrationsEntities } from './features/integrations/integrations-feature.ts';
import { createIntakeFeature } from './features/intake/intake-feature.ts';
import { GrpcProjectLookup, type ProjectLookup } from './features/intake/project-lookup.ts';

/** `identityAccess` and `projects` replace the gRPC clients to identity (tests give fakes). */
export function alertsService(
  config: AlertsConfig,
  clients: { identityAccess?: IdentityAccess; projects?: ProjectLookup } = {},
): ServiceDefinition<AlertsConfig> {
  return {
    name: 'alerts',
    config,
    entities: [...integrationsEntities, ...alertsEntities],
    migrations,
    publishes: [ALERTS_TOPIC],
    features: ({ em, orm }) => {
      const identity = { address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET };
      const access = clients.identityAccess ?? new GrpcIdentityAccess(identity);
      const projects = clients.projects ?? new GrpcProjectLookup(identity);
      const tier = config.ALERTS_TIER;
      const alerts = createAlertsFeature({ em, access, grouping: tier === 'premium' });
      const integrations = createIntegrationsFeature({ em, access, alerts: alerts.alerts, tier });
      return [
        alerts,
        integrations,
        createIntakeFeature({ orm, projects, integrations: integrations.integrations, alerts: alerts.alerts }),
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(alertsService(readConfig()));
