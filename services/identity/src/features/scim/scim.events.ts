import type { EventActor } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { DeprovisioningReason } from '@platform/proto/identity/v1/scim-events';
import { userSnapshot } from '../users/users.events.ts';
import type { SingleSignOnGroupRef } from '../saml-providers/single-sign-on-group.ts';
import type { User } from '../users/user.entity.ts';

const groupRef = (group: SingleSignOnGroupRef) => ({ id: group.id, fullPath: group.fullPath });

/** Provisioning events are keyed by the group, so one group's provisioning history stays in order. */
export function scimUserProvisionedEvent(options: {
  group: SingleSignOnGroupRef;
  user: User;
  externUid: string;
  userCreated: boolean;
  reactivated: boolean;
}) {
  return {
    ...identityEvents.scimUserProvisioned.event({
      aggregateId: options.group.id,
      data: {
        group: groupRef(options.group),
        user: userSnapshot(options.user),
        externUid: options.externUid,
        userCreated: options.userCreated,
        reactivated: options.reactivated,
      },
    }),
    actor: null,
  };
}

export function scimUserDeprovisionedEvent(options: {
  group: SingleSignOnGroupRef;
  user: User;
  externUid: string;
  reason: 'deactivated' | 'deleted';
}) {
  return {
    ...identityEvents.scimUserDeprovisioned.event({
      aggregateId: options.group.id,
      data: {
        group: groupRef(options.group),
        user: userSnapshot(options.user),
        externUid: options.externUid,
        reason:
          options.reason === 'deactivated'
            ? DeprovisioningReason.DEPROVISIONING_REASON_DEACTIVATED
            : DeprovisioningReason.DEPROVISIONING_REASON_DELETED,
      },
    }),
    actor: null,
  };
}

export function scimTokenCreatedEvent(options: { group: SingleSignOnGroupRef; replaced: boolean; actor: EventActor }) {
  return {
    ...identityEvents.scimTokenCreated.event({
      aggregateId: options.group.id,
      data: { group: groupRef(options.group), replaced: options.replaced },
    }),
    actor: options.actor,
  };
}

export function scimTokenRevokedEvent(options: { group: SingleSignOnGroupRef; actor: EventActor }) {
  return {
    ...identityEvents.scimTokenRevoked.event({ aggregateId: options.group.id, data: { group: groupRef(options.group) } }),
    actor: options.actor,
  };
}
