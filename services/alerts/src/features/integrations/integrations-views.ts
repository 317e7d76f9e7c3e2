import type { AlertsTier } from './alerts-tier.ts';
import type { AlertIntegration } from './integration.entity.ts';

/** `Grafana alerts` -> `grafana-alerts`, as GitLab's URLs name an endpoint. */
function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'endpoint';
}

/** Where an integration takes alerts, for whoever configures the sending tool. */
export function integrationUrl(integration: AlertIntegration, options: { baseUrl: string; projectPath: string; tier: AlertsTier }): string {
  const project = `${options.baseUrl}/${options.projectPath}`;
  if (integration.integrationType === 'prometheus') return `${project}/prometheus/alerts/notify.json`;
  if (options.tier === 'free') return `${project}/alerts/notify.json`;
  return `${project}/alerts/notify/${slugOf(integration.name)}/${integration.endpointIdentifier}.json`;
}

/** An integration as the API shows it; `token` only right after it was created or reset. */
export function integrationView(
  integration: AlertIntegration,
  options: { baseUrl: string; projectPath: string; tier: AlertsTier; key?: string },
) {
  return {
    id: integration.id,
    name: integration.name,
    type: integration.integrationType,
    active: integration.active,
    url: integrationUrl(integration, options),
    ...(options.key ? { token: options.key } : {}),
    created_at: integration.createdAt.toISOString(),
    updated_at: integration.updatedAt.toISOString(),
  };
}
