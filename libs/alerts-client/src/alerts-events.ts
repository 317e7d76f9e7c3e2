/**
 * Every event the alerts service publishes, declared once: it records them and consumers
 * (audit, ...) decode them through these definitions. Their data are the messages of
 * `proto/alerts/v1/events.proto`.
 */
import { defineEvent } from '@platform/events';
import {
  AlertResolved,
  AlertTriggered,
  IncidentClosed,
  IncidentOpened,
  IntegrationCreated,
  IntegrationDeleted,
  IntegrationTokenReset,
  IntegrationUpdated,
} from '@platform/proto/alerts/v1/events';

/** The alerts service's events travel on one topic, keyed by the project id. */
export const ALERTS_TOPIC = 'alerts.events';

export const alertsEvents = {
  integrationCreated: defineEvent('alerts.integration.created', IntegrationCreated, { topic: ALERTS_TOPIC }),
  integrationUpdated: defineEvent('alerts.integration.updated', IntegrationUpdated, { topic: ALERTS_TOPIC }),
  integrationDeleted: defineEvent('alerts.integration.deleted', IntegrationDeleted, { topic: ALERTS_TOPIC }),
  integrationTokenReset: defineEvent('alerts.integration.token_reset', IntegrationTokenReset, { topic: ALERTS_TOPIC }),
  alertTriggered: defineEvent('alerts.alert.triggered', AlertTriggered, { topic: ALERTS_TOPIC }),
  alertResolved: defineEvent('alerts.alert.resolved', AlertResolved, { topic: ALERTS_TOPIC }),
  incidentOpened: defineEvent('alerts.incident.opened', IncidentOpened, { topic: ALERTS_TOPIC }),
  incidentClosed: defineEvent('alerts.incident.closed', IncidentClosed, { topic: ALERTS_TOPIC }),
};
