import { identityEvents } from '@platform/identity-client';
import { DeprovisioningReason, type SamlProviderSnapshot, type SingleSignOnGroup } from '@platform/proto/identity/v1/scim-events';
import { onEvent, type EventEnvelope } from '@platform/events';
import type { NewAuditEvent } from '../audit-events-store.ts';
import { auditEvent, type AuditTarget, type AuditTranslation } from './translation-helpers.ts';

/** Every single sign-on and provisioning event is an audit event of its group. */
function groupAuditEvent(
  event: EventEnvelope,
  options: { group: SingleSignOnGroup; eventName: string; target: AuditTarget; customMessage: string },
): NewAuditEvent {
  return auditEvent(event, {
    entity: { type: 'Group', id: options.group.id, path: options.group.fullPath },
    eventName: options.eventName,
    target: options.target,
    action: { custom_message: options.customMessage },
  });
}

const SAML_PROVIDER_ATTRIBUTES = [
  ['enabled', 'enabled'],
  ['ssoUrl', 'sso_url'],
  ['certificateFingerprint', 'certificate_fingerprint'],
] as const satisfies ReadonlyArray<readonly [keyof SamlProviderSnapshot, string]>;

function samlProviderChanges(previous: SamlProviderSnapshot, current: SamlProviderSnapshot): string {
  return SAML_PROVIDER_ATTRIBUTES.filter(([property]) => previous[property] !== current[property])
    .map(([property, attribute]) => `${attribute} from ${String(previous[property])} to ${String(current[property])}`)
    .join(', ');
}

/** Audit events for identity's group single sign-on and SCIM events, by event type. */
export const scimAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.samlProviderCreated, (data, event) => {
    const { group, samlProvider } = data;
    if (!group || !samlProvider) return undefined;
    return groupAuditEvent(event, {
      group,
      eventName: 'saml_provider_created',
      target: { id: samlProvider.id, type: 'SamlProvider', details: group.fullPath },
      customMessage: `Configured SAML single sign-on (${samlProvider.enabled ? 'enabled' : 'disabled'}) with ${samlProvider.ssoUrl}`,
    });
  }),
  onEvent(identityEvents.samlProviderUpdated, (data, event) => {
    const { group, samlProvider, previous } = data;
    if (!group || !samlProvider || !previous) return undefined;
    return groupAuditEvent(event, {
      group,
      eventName: 'saml_provider_updated',
      target: { id: samlProvider.id, type: 'SamlProvider', details: group.fullPath },
      customMessage: `Changed SAML single sign-on: ${samlProviderChanges(previous, samlProvider)}`,
    });
  }),
  onEvent(identityEvents.scimTokenCreated, (data, event) => {
    const { group, replaced } = data;
    if (!group) return undefined;
    return groupAuditEvent(event, {
      group,
      eventName: 'scim_token_created',
      target: { id: group.id, type: 'Group', details: group.fullPath },
      customMessage: replaced ? 'Replaced the SCIM token' : 'Issued a SCIM token',
    });
  }),
  onEvent(identityEvents.scimTokenRevoked, (data, event) => {
    const { group } = data;
    if (!group) return undefined;
    return groupAuditEvent(event, {
      group,
      eventName: 'scim_token_revoked',
      target: { id: group.id, type: 'Group', details: group.fullPath },
      customMessage: 'Revoked the SCIM token',
    });
  }),
  onEvent(identityEvents.scimUserProvisioned, (data, event) => {
    const { group, user, externUid, userCreated, reactivated } = data;
    if (!group || !user) return undefined;
    const how = reactivated ? 'Reactivated' : userCreated ? 'Created and provisioned' : 'Provisioned';
    return groupAuditEvent(event, {
      group,
      eventName: 'scim_user_provisioned',
      target: { id: user.id, type: 'User', details: user.username },
      customMessage: `${how} user through SCIM with externalId ${externUid}`,
    });
  }),
  onEvent(identityEvents.scimUserDeprovisioned, (data, event) => {
    const { group, user, externUid, reason } = data;
    if (!group || !user) return undefined;
    const how = reason === DeprovisioningReason.DEPROVISIONING_REASON_DEACTIVATED ? 'Deactivated' : 'Deprovisioned';
    return groupAuditEvent(event, {
      group,
      eventName: 'scim_user_deprovisioned',
      target: { id: user.id, type: 'User', details: user.username },
      customMessage: `${how} user through SCIM with externalId ${externUid}`,
    });
  }),
];
