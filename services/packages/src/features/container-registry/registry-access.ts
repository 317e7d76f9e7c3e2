import { deployTokenCovers, deployTokenOf, type Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import {
  ACCESS_LEVEL,
  hasProjectAccess,
  requireProjectAccess,
  type IdentityAccess,
  type ProjectAccess,
  type ProjectAccessRequirement,
} from '@platform/identity-client';

/**
 * GitLab's container image abilities: `read` (pull, and the API's reads), `create` (push),
 * `destroy` (a tag's deletion) and `admin` (a repository's deletion and bulk tag deletion).
 */
export type ContainerImageAbility = 'read' | 'create' | 'destroy' | 'admin';

/** Anybody who sees a public or internal project pulls from it, reporters a private one's; developers push and delete tags; maintainers administer. */
const IMAGE_ACCESS: Record<ContainerImageAbility, ProjectAccessRequirement> = {
  read: { minimumLevel: ACCESS_LEVEL.NO_ACCESS, privateMinimumLevel: ACCESS_LEVEL.REPORTER },
  create: { minimumLevel: ACCESS_LEVEL.DEVELOPER },
  destroy: { minimumLevel: ACCESS_LEVEL.DEVELOPER },
  admin: { minimumLevel: ACCESS_LEVEL.MAINTAINER },
};

export function mayOnContainerImages(project: ProjectAccess, ability: ContainerImageAbility): boolean {
  return hasProjectAccess(project, IMAGE_ACCESS[ability]);
}

/** What a personal access token's scopes allow with the registry, as GitLab's `abilities_for_scopes`. */
export function abilitiesOfScopes(scopes: readonly string[]): Set<ContainerImageAbility> {
  const abilities = new Set<ContainerImageAbility>();
  for (const scope of scopes) {
    if (scope === 'api') for (const ability of ['read', 'create', 'destroy', 'admin'] as const) abilities.add(ability);
    if (scope === 'read_api' || scope === 'read_registry') abilities.add('read');
    if (scope === 'write_registry') abilities.add('create');
  }
  return abilities;
}

/** The deploy token scope behind each ability: deploy tokens pull and push, nothing more. */
const DEPLOY_TOKEN_SCOPE_OF: Partial<Record<ContainerImageAbility, string>> = { read: 'read_registry', create: 'write_registry' };

/**
 * An anonymous caller reads public projects' images; a signed-in one what the token's scopes
 * allow; a deploy token pulls with read_registry (public images too) and pushes with write_registry.
 */
export function abilitiesOf(caller: Caller): Set<ContainerImageAbility> {
  if (caller.kind === 'user') return abilitiesOfScopes(caller.scopes);
  const deployToken = deployTokenOf(caller);
  if (!deployToken) return new Set(['read']);
  const abilities = new Set<ContainerImageAbility>(['read']);
  if (deployToken.scopes.includes('write_registry')) abilities.add('create');
  return abilities;
}

/** May the caller do `ability` with the project's images: by its access level, or as a deploy token of the project (or of its group). */
export function callerMayOnContainerImages(caller: Caller, project: ProjectAccess, ability: ContainerImageAbility): boolean {
  const deployToken = deployTokenOf(caller);
  const scope = DEPLOY_TOKEN_SCOPE_OF[ability];
  if (deployToken && scope !== undefined && deployTokenCovers(deployToken, project, scope)) return true;
  return mayOnContainerImages(project, ability);
}

/** The project behind `idOrPath` when the caller may do `ability` with its images: 404 when unseen, 403 when too little access. */
export async function projectForImages(options: {
  access: IdentityAccess;
  caller: Caller;
  idOrPath: string | number;
  ability: ContainerImageAbility;
}): Promise<ProjectAccess> {
  return requireProjectAccess({
    access: options.access,
    caller: options.caller,
    idOrPath: options.idOrPath,
    ...IMAGE_ACCESS[options.ability],
  });
}

/**
 * The project a registry repository name belongs to: the longest leading part of the name that is
 * a project the caller sees (`group/app/web` is `group/app`'s image `web`); undefined when none is.
 */
export async function projectOfRepositoryName(access: IdentityAccess, caller: Caller, name: string): Promise<ProjectAccess | undefined> {
  const parts = name.split('/');
  for (let length = parts.length; length >= 2; length -= 1) {
    try {
      return await access.project({ idOrPath: parts.slice(0, length).join('/'), caller });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  return undefined;
}
