import { identityEvents } from '@platform/identity-client';
import { MembershipSourceType, type MemberSnapshot } from '@platform/proto/identity/v1/namespace-events';
import type { User } from '../users/user.entity.ts';
import type { Member } from './member.entity.ts';

/** A membership or access request as events describe it. */
export function memberSnapshot(
  member: Member,
  user: Pick<User, 'username' | 'name' | 'email'>,
  source: { fullPath: string } & ({ group: { name: string } } | { project: { name: string } }),
): MemberSnapshot {
  return {
    id: member.id,
    sourceType:
      member.sourceType === 'Group'
        ? MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_GROUP
        : MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_PROJECT,
    sourceId: member.sourceId,
    sourceFullPath: source.fullPath,
    sourceName: 'group' in source ? source.group.name : source.project.name,
    userId: member.userId,
    username: user.username,
    userName: user.name,
    accessLevel: member.accessLevel,
    expiresAt: member.expiresAt ?? '',
    userEmail: user.email,
  };
}

// Membership events are keyed by their group or project, so each source's changes stay in order.

export function memberAddedEvent(member: MemberSnapshot) {
  return identityEvents.memberAdded.event({ aggregateId: member.sourceId, data: { member } });
}

export function memberUpdatedEvent(member: MemberSnapshot, previous: { accessLevel: number; expiresAt: string | null }) {
  return identityEvents.memberUpdated.event({
    aggregateId: member.sourceId,
    data: { member, previousAccessLevel: previous.accessLevel, previousExpiresAt: previous.expiresAt ?? '' },
  });
}

export function memberRemovedEvent(member: MemberSnapshot) {
  return identityEvents.memberRemoved.event({ aggregateId: member.sourceId, data: { member } });
}

export function accessRequestedEvent(request: MemberSnapshot) {
  return identityEvents.accessRequested.event({ aggregateId: request.sourceId, data: { request } });
}

export function accessRequestApprovedEvent(member: MemberSnapshot) {
  return identityEvents.accessRequestApproved.event({ aggregateId: member.sourceId, data: { member } });
}

export function accessRequestDeniedEvent(request: MemberSnapshot, withdrawn: boolean) {
  return identityEvents.accessRequestDenied.event({ aggregateId: request.sourceId, data: { request, withdrawn } });
}
