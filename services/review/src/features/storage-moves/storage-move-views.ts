import type { RepositoryStorageMove } from './repository-storage-move.entity.ts';
import type { ProjectIdentity } from './project-directory.ts';

/** GitLab's `Projects::RepositoryStorageMove` entity. */
export function storageMoveView(move: RepositoryStorageMove, project: ProjectIdentity | undefined) {
  return {
    id: move.id,
    created_at: move.createdAt.toISOString(),
    state: move.state,
    source_storage_name: move.sourceStorageName,
    destination_storage_name: move.destinationStorageName,
    project: project ?? { id: move.projectId },
  };
}
