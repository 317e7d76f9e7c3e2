import { alertsEvents } from '@platform/alerts-client';
import { onEvent, type EventEnvelope } from '@platform/events';
import type { Integration } from '@platform/proto/alerts/v1/events';
import { auditEvent, type AuditAction, type AuditTranslation } from './translation-helpers.ts';

/** GitLab's classes of the two kinds of alert integration. */
const TARGET_TYPES: Record<string, string> = { http: 'AlertManagement::HttpIntegration', prometheus: 'Integrations::Prometheus' };

/** `HTTP endpoint 'Grafana'`, as the audit event's message names an integration. */
const described = (integration: Integration) =>
  `${integration.type === 'prometheus' ? 'Prometheus endpoint' : 'HTTP endpoint'} '${integration.name}'`;

function integrationAuditEvent(
  event: EventEnvelope,
  options: { integration: Integration | undefined; eventName: string; action: (integration: Integration) => AuditAction },
) {
  const { integration } = options;
  if (!integration) return undefined;
  return auditEvent(event, {
    entity: { type: 'Project', id: integration.projectId, path: integration.projectPath },
    eventName: options.eventName,
    target: {
      id: integration.integrationId,
      type: TARGET_TYPES[integration.type] ?? 'AlertManagement::HttpIntegration',
      details: integration.name,
    },
    action: options.action(integration),
  });
}

/**
 * Audit events of a project's alert integrations: created, deleted, their key reset, activated or
 * deactivated (a rename alone is not audited).
 */
export const alertAuditEvents: AuditTranslation[] = [
  onEvent(alertsEvents.integrationCreated, (data, event) =>
    integrationAuditEvent(event, {
      integration: data.integration,
      eventName: 'alert_integration_created',
      action: (integration) => ({
        custom_message: `Created alert integration ${described(integration)}${integration.active ? '' : ' (inactive)'}`,
      }),
    }),
  ),
  onEvent(alertsEvents.integrationDeleted, (data, event) =>
    integrationAuditEvent(event, {
      integration: data.integration,
      eventName: 'alert_integration_deleted',
      action: (integration) => ({
        custom_message: `Deleted alert integration ${described(integration)}`,
      }),
    }),
  ),
  onEvent(alertsEvents.integrationTokenReset, (data, event) =>
    integrationAuditEvent(event, {
      integration: data.integration,
      eventName: 'alert_integration_token_reset',
      action: (integration) => ({
        custom_message: `Reset the authorization key of alert integration ${described(integration)}`,
      }),
    }),
  ),
  onEvent(alertsEvents.integrationUpdated, (data, event) => {
    if (!data.integration || data.integration.active === data.wasActive) return undefined;
    return integrationAuditEvent(event, {
      integration: data.integration,
      eventName: 'alert_integration_updated',
      action: (integration) => ({
        change: 'active',
        from: String(data.wasActive),
        to: String(integration.active),
      }),
    });
  }),
];
