import {
  GroupCreated,
  GroupDeleted,
  GroupShared,
  GroupUnshared,
  GroupUpdated,
  type GroupSnapshot,
} from '@platform/proto/identity/v1/namespace-events';
import type { AttributeChange } from '@platform/proto/identity/v1/events';
import type { Group, Namespace } from '../namespaces/namespace.entity.ts';
import { fullNameOf } from '../namespaces/namespaces-store.ts';
import { IDENTITY_TOPIC } from '../users/users.events.ts';

/** A group as events describe it; `known` holds its ancestors, for the full name. */
export function groupSnapshot(group: Group, known: Map<number, Namespace>): GroupSnapshot {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    fullPath: group.fullPath,
    fullName: fullNameOf(group, known),
    parentId: group.parentId ?? 0,
    visibility: group.visibility,
  };
}

function groupEvent(type: string, groupId: number, data: unknown) {
  return { topic: IDENTITY_TOPIC, type, aggregateId: groupId, data: data as Record<string, unknown> };
}

export function groupCreatedEvent(group: GroupSnapshot) {
  return groupEvent('identity.group.created', group.id, GroupCreated.toJSON({ group }));
}

export function groupUpdatedEvent(group: GroupSnapshot, changes: AttributeChange[]) {
  return groupEvent('identity.group.updated', group.id, GroupUpdated.toJSON({ group, changes }));
}

export function groupDeletedEvent(group: GroupSnapshot) {
  return groupEvent('identity.group.deleted', group.id, GroupDeleted.toJSON({ group }));
}

export function groupSharedEvent(options: {
  group: GroupSnapshot;
  sharedWithGroup: GroupSnapshot;
  groupAccess: number;
  expiresAt: string | null;
}) {
  return groupEvent('identity.group.shared', options.group.id, GroupShared.toJSON({ ...options, expiresAt: options.expiresAt ?? '' }));
}

export function groupUnsharedEvent(options: { group: GroupSnapshot; sharedWithGroup: GroupSnapshot }) {
  return groupEvent('identity.group.unshared', options.group.id, GroupUnshared.toJSON(options));
}
