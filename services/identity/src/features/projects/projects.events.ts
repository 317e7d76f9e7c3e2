import { identityEvents } from '@platform/identity-client';
import type { GroupSnapshot, ProjectSnapshot } from '@platform/proto/identity/v1/namespace-events';
import type { AttributeChange } from '@platform/proto/identity/v1/events';
import type { Namespace } from '../access/namespace.entity.ts';
import { fullNameOf } from '../access/namespaces-store.ts';
import type { Project } from '../access/project.entity.ts';

/** A project as events describe it; `known` holds its namespace and the namespace's ancestors. */
export function projectSnapshot(project: Project, known: Map<number, Namespace>): ProjectSnapshot {
  const namespace = known.get(project.namespaceId);
  return {
    id: project.id,
    name: project.name,
    path: project.path,
    pathWithNamespace: namespace ? `${namespace.fullPath}/${project.path}` : project.path,
    nameWithNamespace: namespace ? `${fullNameOf(namespace, known)} / ${project.name}` : project.name,
    namespaceId: project.namespaceId,
    visibility: project.visibility,
    archived: project.archived,
  };
}

export function projectCreatedEvent(project: ProjectSnapshot) {
  return identityEvents.projectCreated.event({ aggregateId: project.id, data: { project } });
}

export function projectUpdatedEvent(project: ProjectSnapshot, changes: AttributeChange[]) {
  return identityEvents.projectUpdated.event({ aggregateId: project.id, data: { project, changes } });
}

export function projectDeletedEvent(project: ProjectSnapshot) {
  return identityEvents.projectDeleted.event({ aggregateId: project.id, data: { project } });
}

export function projectSharedEvent(options: {
  project: ProjectSnapshot;
  group: GroupSnapshot;
  groupAccess: number;
  expiresAt: string | null;
}) {
  return identityEvents.projectShared.event({ aggregateId: options.project.id, data: { ...options, expiresAt: options.expiresAt ?? '' } });
}

export function projectUnsharedEvent(options: { project: ProjectSnapshot; group: GroupSnapshot }) {
  return identityEvents.projectUnshared.event({ aggregateId: options.project.id, data: options });
}

export function projectTransferredEvent(options: {
  project: ProjectSnapshot;
  previousPathWithNamespace: string;
  previousNamespaceId: number;
}) {
  return identityEvents.projectTransferred.event({ aggregateId: options.project.id, data: options });
}
