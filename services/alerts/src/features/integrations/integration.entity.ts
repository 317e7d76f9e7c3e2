import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const INTEGRATION_TYPES = ['http', 'prometheus'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** An endpoint of a project that accepts alerts: a generic HTTP endpoint or the Prometheus endpoint. */
export const AlertIntegration = defineEntity({
  name: 'AlertIntegration',
  tableName: 'alert_integrations',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    name: p.text(),
    integrationType: p.enum(INTEGRATION_TYPES),
    active: p.boolean(),
    /** The last part of an HTTP endpoint's URL (`notify/<name>/<endpoint_identifier>.json`). */
    endpointIdentifier: p.text(),
    /** SHA-256 of the authorization key, which is shown only when created or reset. */
    tokenDigest: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type AlertIntegration = InferEntity<typeof AlertIntegration>;

export const integrationsEntities = [AlertIntegration];
