import { actorOf, deployTokenCovers, deployTokenOf, type Actor, type Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
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

/** The deploy token scope GitLab asks for each action: deploy tokens read and publish, never delete. */
const DEPLOY_TOKEN_SCOPE_OF: Partial<Record<PackageAction, string>> = { read: 'read_package_registry', publish: 'write_package_registry' };

/** May the caller do `action` with the project's packages: by its access level, or as a deploy token of the project (or of its group). */
export function callerMayOnPackages(caller: Caller, project: ProjectAccess, action: PackageAction): boolean {
  const deployToken = deployTokenOf(caller);
  const scope = DEPLOY_TOKEN_SCOPE_OF[action];
  if (deployToken && scope !== undefined && deployTokenCovers(deployToken, project, scope)) return true;
  return mayOnPackages(project, action);
}

/** Who a publish is recorded as: the user; nobody for a deploy token, whose packages GitLab gives no creator. */
export function publisherOf(caller: Caller): { creatorId: number | null; actor: Actor | null } {
  return caller.kind === 'user' ? { creatorId: caller.userId, actor: actorOf(caller) } : { creatorId: null, actor: null };
}

/**
 * The project behind `idOrPath` when the caller may do `action` with its packages: 404 when
 * they cannot see the project, 403 when they see it with too little access.
 */
export async function projectFor(options: {
  access: IdentityAccess;
  caller: Caller;
  idOrPath: string | number;
  action: PackageAction;
}): Promise<ProjectAccess> {
  if (deployTokenOf(options.caller)) {
    // Identity shows a deploy token its own projects; what it may do there is decided here.
    const project = await options.access.project({ idOrPath: String(options.idOrPath), caller: options.caller });
    if (!callerMayOnPackages(options.caller, project, options.action)) throw new ForbiddenError();
    return project;
  }
  return requireProjectAccess({
    access: options.access,
    caller: options.caller,
    idOrPath: options.idOrPath,
    ...PACKAGE_ACCESS[options.action],
  });
}
