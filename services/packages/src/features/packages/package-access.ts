import type { Caller } from '@platform/auth';
import {
  ACCESS_LEVEL,
  hasProjectAccess,
  requireProjectAccess,
  type IdentityAccess,
  type ProjectAccess,
  type ProjectAccessRequirement,
} from '@platform/identity-client';

/** What a caller does with a project's packages, and the least role GitLab asks for it. */
export type PackageAction = 'read' | 'publish' | 'destroy';

/**
 * GitLab's package permissions: anybody who sees a public or internal project reads its
 * packages, reporters a private one's; developers publish; maintainers delete; administrators
 * do anything.
 */
const PACKAGE_ACCESS: Record<PackageAction, ProjectAccessRequirement> = {
  read: { minimumLevel: ACCESS_LEVEL.NO_ACCESS, privateMinimumLevel: ACCESS_LEVEL.REPORTER },
  publish: { minimumLevel: ACCESS_LEVEL.DEVELOPER },
  destroy: { minimumLevel: ACCESS_LEVEL.MAINTAINER },
};

export function mayOnPackages(project: ProjectAccess, action: PackageAction): boolean {
  return hasProjectAccess(project, PACKAGE_ACCESS[action]);
}

/**
 * The project behind `idOrPath` when the caller may do `action` with its packages: 404 when
 * they cannot see the project, 403 when they see it with too little access.
 */
export async function projectFor(options: { access: IdentityAccess; caller: Caller; idOrPath: string | number; action: PackageAction }) {
  return requireProjectAccess({
    access: options.access,
    caller: options.caller,
    idOrPath: options.idOrPath,
    ...PACKAGE_ACCESS[options.action],
  });
}
