import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { alertsEvents } from '@platform/alerts-client';
import type { EventEnvelope } from '@platform/events';
import { auditEventFor } from '../audit-event-translation.ts';

const maintainer = { id: 4, username: 'lead', name: 'Lead', ip: '10.0.0.4' };
const integration = { projectId: 7, integrationId: 12, name: 'Grafana', type: 'http', active: true, projectPath: 'acme/app' };

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-24T10:00:00.000Z', aggregateId: '7', actor: maintainer, traceContext: {}, ...event };
}

describe('audit events of alert integration events', () => {
  it("records creation, deletion and key resets as the project's audit events", () => {
    const created = auditEventFor(envelope(alertsEvents.integrationCreated.event({ aggregateId: 7, data: { integration } })));
    expect(created).toMatchObject({
      authorId: 4,
      entityType: 'Project',
      entityId: 7,
      eventName: 'alert_integration_created',
      details: {
        custom_message: "Created alert integration HTTP endpoint 'Grafana'",
        target_id: 12,
        target_type: 'AlertManagement::HttpIntegration',
        target_details: 'Grafana',
        entity_path: 'acme/app',
        author_name: 'Lead',
        ip_address: '10.0.0.4',
      },
    });
    const reset = auditEventFor(envelope(alertsEvents.integrationTokenReset.event({ aggregateId: 7, data: { integration } })));
    expect(reset).toMatchObject({
      eventName: 'alert_integration_token_reset',
      details: { custom_message: "Reset the authorization key of alert integration HTTP endpoint 'Grafana'" },
    });
    const prometheus = { ...integration, type: 'prometheus', name: 'Alertmanager' };
    const deleted = auditEventFor(envelope(alertsEvents.integrationDeleted.event({ aggregateId: 7, data: { integration: prometheus } })));
    expect(deleted).toMatchObject({
      eventName: 'alert_integration_deleted',
      details: { custom_message: "Deleted alert integration Prometheus endpoint 'Alertmanager'", target_type: 'Integrations::Prometheus' },
    });
  });

  it('records activation changes, not renames', () => {
    const deactivated = auditEventFor(
      envelope(
        alertsEvents.integrationUpdated.event({
          aggregateId: 7,
          data: { integration: { ...integration, active: false }, wasActive: true },
        }),
      ),
    );
    expect(deactivated).toMatchObject({ eventName: 'alert_integration_updated', details: { change: 'active', from: 'true', to: 'false' } });
    const renamed = auditEventFor(
      envelope(alertsEvents.integrationUpdated.event({ aggregateId: 7, data: { integration, wasActive: true } })),
    );
    expect(renamed).toBeUndefined();
  });
});
