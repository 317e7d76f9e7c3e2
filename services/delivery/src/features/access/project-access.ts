import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';

/** GitLab's access levels this service asks for. */
export const ROLE = { reporter: 20, developer: 30, maintainer: 40 } as const;

/**
 * The project behind `idOrPath` when the caller has at least `minimumLevel` there (administrators
 * always): 404 when they cannot see the project, 403 when they see it with too little access.
 * Reads of a public or internal project's deployments need no membership (`readableByVisitors`).
 */
export async function projectFor(options: {
  access: IdentityAccess;
  caller: Caller;
  idOrPath: string | number;
  minimumLevel: number;
  readableByVisitors?: boolean;
}): Promise<ProjectAccess> {
  const project = await options.access.project({ idOrPath: String(options.idOrPath), caller: options.caller });
  if (project.isAdmin || project.accessLevel >= options.minimumLevel) return project;
  if (options.readableByVisitors && project.visibility !== 'private') return project;
  throw new ForbiddenError();
}
