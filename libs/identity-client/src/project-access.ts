import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from './identity-access.ts';

/** The levels a caller needs in a project; administrators pass whatever their level. */
export interface ProjectAccessRequirement {
  /** The least level on any project; 0 asks only that the caller sees it. */
  minimumLevel: number;
  /**
   * The least level on a private project, for what anybody who sees a public or internal project
   * may do there (GitLab's reads: guests read a private project's issues, reporters its code).
   * The greater of the two applies.
   */
  privateMinimumLevel?: number;
}

/** Whether the caller, as identity answered for `project`, meets `requirement` there. */
export function hasProjectAccess(project: ProjectAccess, requirement: ProjectAccessRequirement): boolean {
  if (project.isAdmin) return true;
  const privateLevel = project.visibility === 'private' ? (requirement.privateMinimumLevel ?? 0) : 0;
  return project.accessLevel >= Math.max(requirement.minimumLevel, privateLevel);
}

/**
 * The project behind `idOrPath` (an id or a full path, as the API received it) as the caller sees
 * it, when they meet `requirement` there: NotFoundError (404 Project Not Found) when it does not
 * exist or they may not see it, ForbiddenError (403) when they see it with too little access.
 */
export async function requireProjectAccess(
  options: { access: IdentityAccess; caller: Caller; idOrPath: string | number } & ProjectAccessRequirement,
): Promise<ProjectAccess> {
  const project = await options.access.project({ idOrPath: String(options.idOrPath), caller: options.caller });
  if (!hasProjectAccess(project, options)) throw new ForbiddenError();
  return project;
}
