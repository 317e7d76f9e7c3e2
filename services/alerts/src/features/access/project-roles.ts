import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';

/** GitLab's roles as alert management asks for them. */
export const ROLE = { reporter: 20, developer: 30, maintainer: 40 } as const;

/**
 * The project behind `idOrPath` when the caller has at least `minimumLevel` there (administrators
 * always): 404 when they cannot see the project, 403 when they see it with too little access.
 */
export async function projectWithRole(options: {
  access: IdentityAccess;
  caller: Caller;
  idOrPath: string | number;
  minimumLevel: number;
}): Promise<ProjectAccess> {
  const project = await options.access.project({ idOrPath: String(options.idOrPath), caller: options.caller });
  if (!project.isAdmin && project.accessLevel < options.minimumLevel) throw new ForbiddenError();
  return project;
}
