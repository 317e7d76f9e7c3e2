import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import { requireProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import type { ProjectRepository, RepositoriesService } from './repositories-service.ts';
import { CODE_PUSHERS, codeReaders } from './repository-access.ts';

export type RepositoryAccessNeed = 'read' | 'push';

/** A project and its repository, once the caller's right to use them was checked. */
export interface AccessedRepository {
  project: ProjectAccess;
  repository: ProjectRepository;
}

/**
 * Resolves `:id` (an id or a full path) through identity and opens the project's repository
 * for the API: 404 when the caller cannot see the project, 403 without the right to `need` (or to
 * push to an archived project).
 */
export async function accessRepository(options: {
  access: IdentityAccess;
  repositories: RepositoriesService;
  caller: Caller;
  idOrPath: string | number;
  need: RepositoryAccessNeed;
}): Promise<AccessedRepository> {
  const project = await requireProjectAccess({
    access: options.access,
    caller: options.caller,
    idOrPath: options.idOrPath,
    ...(options.need === 'read' ? codeReaders() : CODE_PUSHERS),
  });
  // An archived project is read-only, whoever asks (GitLab's push_code is prevented there).
  if (options.need === 'push' && project.archived) throw new ForbiddenError();
  return { project, repository: await options.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId }) };
}
