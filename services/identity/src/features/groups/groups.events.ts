import { identityEvents } from '@platform/identity-client';
import type { GroupSnapshot } from '@platform/proto/identity/v1/namespace-events';
import type { AttributeChange } from '@platform/proto/identity/v1/events';

export function groupCreatedEvent(group: GroupSnapshot) {
  return identityEvents.groupCreated.event({ aggregateId: group.id, data: { group } });
}

export function groupUpdatedEvent(group: GroupSnapshot, changes: AttributeChange[]) {
  return identityEvents.groupUpdated.event({ aggregateId: group.id, data: { group, changes } });
}

export function groupDeletedEvent(group: GroupSnapshot) {
  return identityEvents.groupDeleted.event({ aggregateId: group.id, data: { group } });
}

export function groupSharedEvent(options: {
  group: GroupSnapshot;
  sharedWithGroup: GroupSnapshot;
  groupAccess: number;
  expiresAt: string | null;
}) {
  return identityEvents.groupShared.event({ aggregateId: options.group.id, data: { ...options, expiresAt: options.expiresAt ?? '' } });
}

export function groupUnsharedEvent(options: { group: GroupSnapshot; sharedWithGroup: GroupSnapshot }) {
  return identityEvents.groupUnshared.event({ aggregateId: options.group.id, data: options });
}

export function groupTransferredEvent(options: { group: GroupSnapshot; previousFullPath: string; previousParentId: number | null }) {
  return identityEvents.groupTransferred.event({
    aggregateId: options.group.id,
    data: { group: options.group, previousFullPath: options.previousFullPath, previousParentId: options.previousParentId ?? 0 },
  });
}
