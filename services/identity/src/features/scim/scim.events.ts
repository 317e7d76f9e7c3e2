import type { EventActor } from '@platform/events';
import {
  DeprovisioningReason,
  ScimTokenCreated,
  ScimTokenRevoked,
  ScimUserDeprovisioned,
  ScimUserProvisioned,
} from '@platform/proto/identity/v1/scim-events';
import { IDENTITY_TOPIC, userSnapshot } from '../users/users.events.ts';
import type { SingleSignOnGroupRef } from '../saml-providers/saml-providers-service.ts';
import type { User } from '../users/user.entity.ts';

/** Provisioning events are keyed by the group, so one group's provisioning history stays in order. */
export function scimUserProvisionedEvent(options: {
  group: SingleSignOnGroupRef;
  user: User;
  externUid: string;
  userCreated: boolean;
  reactivated: boolean;
}) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.scim_user.provisioned',
    aggregateId: options.group.id,
    actor: null,
    data: ScimUserProvisioned.toJSON({
      group: { id: options.group.id, fullPath: options.group.fullPath },
      user: userSnapshot(options.user),
      externUid: options.externUid,
      userCreated: options.userCreated,
      reactivated: options.reactivated,
    }) as Record<string, unknown>,
  };
}

export function scimUserDeprovisionedEvent(options: {
  group: SingleSignOnGroupRef;
  user: User;
  externUid: string;
  reason: 'deactivated' | 'deleted';
}) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.scim_user.deprovisioned',
    aggregateId: options.group.id,
    actor: null,
    data: ScimUserDeprovisioned.toJSON({
      group: { id: options.group.id, fullPath: options.group.fullPath },
      user: userSnapshot(options.user),
      externUid: options.externUid,
      reason:
        options.reason === 'deactivated'
          ? DeprovisioningReason.DEPROVISIONING_REASON_DEACTIVATED
          : DeprovisioningReason.DEPROVISIONING_REASON_DELETED,
    }) as Record<string, unknown>,
  };
}

export function scimTokenCreatedEvent(options: { group: SingleSignOnGroupRef; replaced: boolean; actor: EventActor }) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.scim_token.created',
    aggregateId: options.group.id,
    actor: options.actor,
    data: ScimTokenCreated.toJSON({
      group: { id: options.group.id, fullPath: options.group.fullPath },
      replaced: options.replaced,
    }) as Record<string, unknown>,
  };
}

export function scimTokenRevokedEvent(options: { group: SingleSignOnGroupRef; actor: EventActor }) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.scim_token.revoked',
    aggregateId: options.group.id,
    actor: options.actor,
    data: ScimTokenRevoked.toJSON({ group: { id: options.group.id, fullPath: options.group.fullPath } }) as Record<string, unknown>,
  };
}
