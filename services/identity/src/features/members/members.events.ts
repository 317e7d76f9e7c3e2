import {
  AccessRequestApproved,
  AccessRequestDenied,
  AccessRequested,
  MemberAdded,
  MemberRemoved,
  MemberUpdated,
  MembershipSourceType,
  type MemberSnapshot,
} from '@platform/proto/identity/v1/namespace-events';
import type { User } from '../users/user.entity.ts';
import { IDENTITY_TOPIC } from '../users/users.events.ts';
import type { Member } from './member.entity.ts';

/** A membership or access request as events describe it. */
export function memberSnapshot(member: Member, user: Pick<User, 'username' | 'name'>, sourceFullPath: string): MemberSnapshot {
  return {
    id: member.id,
    sourceType:
      member.sourceType === 'Group'
        ? MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_GROUP
        : MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_PROJECT,
    sourceId: member.sourceId,
    sourceFullPath,
    userId: member.userId,
    username: user.username,
    userName: user.name,
    accessLevel: member.accessLevel,
    expiresAt: member.expiresAt ?? '',
  };
}

/** Membership events are keyed by their group or project, so each source's changes stay in order. */
function memberEvent(type: string, snapshot: MemberSnapshot, data: unknown) {
  return { topic: IDENTITY_TOPIC, type, aggregateId: snapshot.sourceId, data: data as Record<string, unknown> };
}

export function memberAddedEvent(member: MemberSnapshot) {
  return memberEvent('identity.member.added', member, MemberAdded.toJSON({ member }));
}

export function memberUpdatedEvent(member: MemberSnapshot, previous: { accessLevel: number; expiresAt: string | null }) {
  return memberEvent(
    'identity.member.updated',
    member,
    MemberUpdated.toJSON({ member, previousAccessLevel: previous.accessLevel, previousExpiresAt: previous.expiresAt ?? '' }),
  );
}

export function memberRemovedEvent(member: MemberSnapshot) {
  return memberEvent('identity.member.removed', member, MemberRemoved.toJSON({ member }));
}

export function accessRequestedEvent(request: MemberSnapshot) {
  return memberEvent('identity.access_request.requested', request, AccessRequested.toJSON({ request }));
}

export function accessRequestApprovedEvent(member: MemberSnapshot) {
  return memberEvent('identity.access_request.approved', member, AccessRequestApproved.toJSON({ member }));
}

export function accessRequestDeniedEvent(request: MemberSnapshot, withdrawn: boolean) {
  return memberEvent('identity.access_request.denied', request, AccessRequestDenied.toJSON({ request, withdrawn }));
}
