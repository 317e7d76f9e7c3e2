import type { EventEnvelope } from '@platform/events';
import type { NewAuditEvent } from './audit-events-store.ts';
import type { AuditTranslation } from './translations/translation-helpers.ts';
import { userAuditEvents } from './translations/user-audit-events.ts';
import { keyAuditEvents } from './translations/key-audit-events.ts';
import { scimAuditEvents } from './translations/scim-audit-events.ts';
import { namespaceAuditEvents } from './translations/namespace-audit-events.ts';

/** Every domain event type that becomes an audit event; one module per kind of source. */
const translations: Record<string, AuditTranslation> = {
  ...userAuditEvents,
  ...keyAuditEvents,
  ...scimAuditEvents,
  ...namespaceAuditEvents,
};

/** The topics whose events may become audit events. */
export const AUDITED_TOPICS = ['identity.events'];

/** The audit event a domain event stands for; unknown types are not audited. */
export function auditEventFor(event: EventEnvelope): NewAuditEvent | undefined {
  return translations[event.type]?.(event);
}
