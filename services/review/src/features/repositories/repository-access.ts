import { ACCESS_LEVEL, hasProjectAccess, type ProjectAccess, type ProjectAccessRequirement } from '@platform/identity-client';

/**
 * Who may read a project's code, as GitLab decides: anybody who sees a public or internal
 * project, reporters and above on a private one, administrators always; `minimumLevel` for
 * routes that ask more of their callers.
 */
export function codeReaders(minimumLevel: number = ACCESS_LEVEL.NO_ACCESS): ProjectAccessRequirement {
  return { minimumLevel, privateMinimumLevel: ACCESS_LEVEL.REPORTER };
}

/** Who may push: developers and above, administrators always. */
export const CODE_PUSHERS: ProjectAccessRequirement = { minimumLevel: ACCESS_LEVEL.DEVELOPER };

export function mayReadCode(project: ProjectAccess): boolean {
  return hasProjectAccess(project, codeReaders());
}

export function mayPushCode(project: ProjectAccess): boolean {
  return hasProjectAccess(project, CODE_PUSHERS);
}
