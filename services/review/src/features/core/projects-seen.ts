import type { Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';

/** Projects by id or path as the caller sees them, each asked of identity once; undefined for one the caller may not see. */
export function projectsSeenBy(access: IdentityAccess, caller: Caller): (idOrPath: string) => Promise<ProjectAccess | undefined> {
  const seen = new Map<string, Promise<ProjectAccess | undefined>>();
  return (idOrPath) => {
    const key = idOrPath.toLowerCase();
    let project = seen.get(key);
    if (!project) {
      project = access.project({ idOrPath, caller }).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      seen.set(key, project);
    }
    return project;
  };
}
