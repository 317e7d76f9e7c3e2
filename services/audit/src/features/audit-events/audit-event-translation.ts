import type { EventEnvelope } from '@platform/events';
import type { NewAuditEvent } from './audit-events-store.ts';
import type { AuditTranslation } from './translations/translation-helpers.ts';
import { userAuditEvents } from './translations/user-audit-events.ts';
import { keyAuditEvents } from './translations/key-audit-events.ts';
import { scimAuditEvents } from './translations/scim-audit-events.ts';
import { namespaceAuditEvents } from './translations/namespace-audit-events.ts';
import { packageAuditEvents } from './translations/package-audit-events.ts';
import { alertAuditEvents } from './translations/alert-audit-events.ts';
import { settingsAuditEvents } from './translations/settings-audit-events.ts';
import { ciVariableAuditEvents } from './translations/ci-variable-audit-events.ts';
import { userEmailAuditEvents } from './translations/user-email-audit-events.ts';
import { deployKeyAuditEvents } from './translations/deploy-key-audit-events.ts';
import { approvalAuditEvents } from './translations/approval-audit-events.ts';
import { tokenAuditEvents } from './translations/token-audit-events.ts';
import { deployTokenAuditEvents } from './translations/deploy-token-audit-events.ts';
import { protectedBranchAuditEvents } from './translations/protected-branch-audit-events.ts';
import { deliveryAuditEvents } from './translations/delivery-audit-events.ts';

/** Every domain event type that becomes an audit event; one module per kind of source. */
export const auditTranslations: AuditTranslation[] = [
  ...userAuditEvents,
  ...keyAuditEvents,
  ...scimAuditEvents,
  ...namespaceAuditEvents,
  ...packageAuditEvents,
  ...alertAuditEvents,
  ...settingsAuditEvents,
  ...ciVariableAuditEvents,
  ...userEmailAuditEvents,
  ...deployKeyAuditEvents,
  ...approvalAuditEvents,
  ...tokenAuditEvents,
  ...deployTokenAuditEvents,
  ...protectedBranchAuditEvents,
  ...deliveryAuditEvents,
];

const byType = new Map(auditTranslations.map((translation) => [translation.type, translation]));

/** The audit event a domain event stands for; unknown types are not audited. */
export function auditEventFor(event: EventEnvelope): NewAuditEvent | undefined {
  return byType.get(event.type)?.handle(event);
}
