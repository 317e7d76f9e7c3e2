import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';

export const REPORTER = 20;
export const DEVELOPER = 30;
export const MAINTAINER = 40;

/** What a caller does with a project's packages, and the least role GitLab asks for it. */
export type PackageAction = 'read' | 'publish' | 'destroy';

/**
 * GitLab's package permissions: anybody who sees a public or internal project reads its
 * packages, reporters a private one's; developers publish; maintainers delete; administrators
 * do anything.
 */
export function mayOnPackages(project: ProjectAccess, action: PackageAction): boolean {
  if (project.isAdmin) return true;
  if (action === 'read') return project.visibility !== 'private' || project.accessLevel >= REPORTER;
  return project.accessLevel >= (action === 'publish' ? DEVELOPER : MAINTAINER);
}

/**
 * The project behind `idOrPath` when the caller may do `action` with its packages: 404 when
 * they cannot see the project, 403 when they see it with too little access.
 */
export async function projectFor(options: { access: IdentityAccess; caller: Caller; idOrPath: string | number; action: PackageAction }) {
  const project = await options.access.project({ idOrPath: String(options.idOrPath), caller: options.caller });
  if (!mayOnPackages(project, options.action)) throw new ForbiddenError();
  return project;
}
