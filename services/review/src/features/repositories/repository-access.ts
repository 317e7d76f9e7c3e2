import type { ProjectAccess } from '@platform/identity-client';

export const REPORTER = 20;
export const DEVELOPER = 30;

/**
 * Who may read a project's code, as GitLab decides: anybody who sees a public or internal
 * project, reporters and above on a private one, administrators always.
 */
export function mayReadCode(project: ProjectAccess): boolean {
  return project.isAdmin || project.visibility !== 'private' || project.accessLevel >= REPORTER;
}

/** Who may push: developers and above, administrators always. */
export function mayPushCode(project: ProjectAccess): boolean {
  return project.isAdmin || project.accessLevel >= DEVELOPER;
}
