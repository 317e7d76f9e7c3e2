import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { ProjectRepository, RepositoriesService } from './repositories-service.ts';
import { mayPushCode, mayReadCode } from './repository-access.ts';

export type RepositoryAccessNeed = 'read' | 'push';

/** A project and its repository, once the caller's right to use them was checked. */
export interface AccessedRepository {
  project: ProjectAccess;
  repository: ProjectRepository;
}

/**
 * Resolves `:id` (an id or a full path) through identity and opens the project's repository
 * for the API: 404 when the caller cannot see the project, 403 without the right to `need`.
 */
export async function accessRepository(options: {
  access: IdentityAccess;
  repositories: RepositoriesService;
  caller: Caller;
  idOrPath: string | number;
  need: RepositoryAccessNeed;
}): Promise<AccessedRepository> {
  const project = await options.access.project({ idOrPath: String(options.idOrPath), caller: options.caller });
  const allowed = options.need === 'read' ? mayReadCode(project) : mayPushCode(project);
  if (!allowed) throw new ForbiddenError();
  return { project, repository: await options.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId }) };
}
