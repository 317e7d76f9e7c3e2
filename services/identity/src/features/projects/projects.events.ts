import {
  ProjectCreated,
  ProjectDeleted,
  ProjectShared,
  ProjectUnshared,
  ProjectUpdated,
  type GroupSnapshot,
  type ProjectSnapshot,
} from '@platform/proto/identity/v1/namespace-events';
import type { AttributeChange } from '@platform/proto/identity/v1/events';
import type { Namespace } from '../namespaces/namespace.entity.ts';
import { fullNameOf } from '../namespaces/namespaces-store.ts';
import { IDENTITY_TOPIC } from '../users/users.events.ts';
import type { Project } from './project.entity.ts';

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

function projectEvent(type: string, projectId: number, data: unknown) {
  return { topic: IDENTITY_TOPIC, type, aggregateId: projectId, data: data as Record<string, unknown> };
}

export function projectCreatedEvent(project: ProjectSnapshot) {
  return projectEvent('identity.project.created', project.id, ProjectCreated.toJSON({ project }));
}

export function projectUpdatedEvent(project: ProjectSnapshot, changes: AttributeChange[]) {
  return projectEvent('identity.project.updated', project.id, ProjectUpdated.toJSON({ project, changes }));
}

export function projectDeletedEvent(project: ProjectSnapshot) {
  return projectEvent('identity.project.deleted', project.id, ProjectDeleted.toJSON({ project }));
}

export function projectSharedEvent(options: {
  project: ProjectSnapshot;
  group: GroupSnapshot;
  groupAccess: number;
  expiresAt: string | null;
}) {
  return projectEvent(
    'identity.project.shared',
    options.project.id,
    ProjectShared.toJSON({ ...options, expiresAt: options.expiresAt ?? '' }),
  );
}

export function projectUnsharedEvent(options: { project: ProjectSnapshot; group: GroupSnapshot }) {
  return projectEvent('identity.project.unshared', options.project.id, ProjectUnshared.toJSON(options));
}
