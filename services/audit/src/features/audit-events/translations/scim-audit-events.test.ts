import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import {
  DeprovisioningReason,
  SamlProviderUpdated,
  ScimTokenCreated,
  ScimUserDeprovisioned,
  ScimUserProvisioned,
} from '@platform/proto/identity/v1/scim-events';
import { auditEventFor } from '../audit-event-translation.ts';

const group = { id: 7, fullPath: 'acme' };
const user = {
  id: 12,
  username: 'jane',
  name: 'Jane Doe',
  email: 'jane@acme.test',
  isAdmin: false,
  state: 'active',
  privateProfile: false,
};

function envelope(type: string, data: unknown, actor: EventEnvelope['actor'] = null): EventEnvelope {
  return {
    id: '4f0f5c1e-8a59-4cf1-9d4b-0d1c3f0c2a11',
    type,
    occurredAt: '2026-11-22T10:00:00.000Z',
    aggregateId: '7',
    actor,
    data: data as Record<string, unknown>,
    traceContext: {},
  };
}

describe('SCIM audit events', () => {
  it('records a provisioning as a group audit event by the system', () => {
    const data = ScimUserProvisioned.toJSON({ group, user, externUid: 'ext-1', userCreated: true, reactivated: false });
    expect(auditEventFor(envelope('identity.scim_user.provisioned', data))).toEqual({
      authorId: -1,
      sourceEventId: '4f0f5c1e-8a59-4cf1-9d4b-0d1c3f0c2a11',
      createdAt: new Date('2026-11-22T10:00:00.000Z'),
      entityId: 7,
      entityType: 'Group',
      eventName: 'scim_user_provisioned',
      details: {
        author_name: 'System',
        ip_address: null,
        custom_message: 'Created and provisioned user through SCIM with externalId ext-1',
        target_id: 12,
        target_type: 'User',
        target_details: 'jane',
        entity_path: 'acme',
      },
    });
  });

  it('tells a deactivation from a deletion', () => {
    const deactivated = ScimUserDeprovisioned.toJSON({
      group,
      user,
      externUid: 'ext-1',
      reason: DeprovisioningReason.DEPROVISIONING_REASON_DEACTIVATED,
    });
    const deleted = ScimUserDeprovisioned.toJSON({
      group,
      user,
      externUid: 'ext-1',
      reason: DeprovisioningReason.DEPROVISIONING_REASON_DELETED,
    });
    expect(auditEventFor(envelope('identity.scim_user.deprovisioned', deactivated))?.details.custom_message).toBe(
      'Deactivated user through SCIM with externalId ext-1',
    );
    expect(auditEventFor(envelope('identity.scim_user.deprovisioned', deleted))?.details.custom_message).toBe(
      'Deprovisioned user through SCIM with externalId ext-1',
    );
  });

  it('names the SAML attributes that changed and the owner who changed them', () => {
    const previous = { id: 3, enabled: true, ssoUrl: 'https://idp.test/sso', certificateFingerprint: 'a'.repeat(40) };
    const data = SamlProviderUpdated.toJSON({ group, samlProvider: { ...previous, enabled: false }, previous });
    const owner = { id: 5, username: 'owner', name: 'Group Owner', ip: '10.0.0.1' };
    const audit = auditEventFor(envelope('identity.saml_provider.updated', data, owner));
    expect(audit).toMatchObject({
      authorId: 5,
      entityType: 'Group',
      entityId: 7,
      eventName: 'saml_provider_updated',
      details: {
        author_name: 'Group Owner',
        ip_address: '10.0.0.1',
        custom_message: 'Changed SAML single sign-on: enabled from true to false',
      },
    });
  });

  it('tells a token replacement from a first token', () => {
    const replaced = auditEventFor(envelope('identity.scim_token.created', ScimTokenCreated.toJSON({ group, replaced: true })));
    const first = auditEventFor(envelope('identity.scim_token.created', ScimTokenCreated.toJSON({ group, replaced: false })));
    expect(replaced?.details.custom_message).toBe('Replaced the SCIM token');
    expect(first?.details.custom_message).toBe('Issued a SCIM token');
  });
});
