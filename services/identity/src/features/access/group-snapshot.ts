import type { GroupSnapshot } from '@platform/proto/identity/v1/namespace-events';
import type { Group, Namespace } from './namespace.entity.ts';
import { fullNameOf } from './namespaces-store.ts';

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
