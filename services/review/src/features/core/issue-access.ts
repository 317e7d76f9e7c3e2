import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';

export const GUEST = 10;
export const REPORTER = 20;

/** Who may see a project's issues, labels and milestones: anybody who sees a public or internal project, guests and above on a private one. */
export function mayReadIssues(project: ProjectAccess): boolean {
  return project.isAdmin || project.visibility !== 'private' || project.accessLevel >= GUEST;
}

/** Reporters and above manage labels and milestones and triage issues (GitLab's `admin_label`, `admin_milestone`, `admin_issue`). */
export function mayManageIssues(project: ProjectAccess): boolean {
  return project.isAdmin || project.accessLevel >= REPORTER;
}

/**
 * The project behind `:id` when the caller may read its issues, labels and milestones (and has
 * `minimumLevel`): 404 when it is invisible, 403 with too little access.
 */
export async function planningProject(options: {
  access: IdentityAccess;
  caller: Caller;
  idOrPath: string | number;
  minimumLevel?: number;
}): Promise<ProjectAccess> {
  const project = await options.access.project({ idOrPath: String(options.idOrPath), caller: options.caller });
  if (!mayReadIssues(project)) throw new ForbiddenError();
  if (!project.isAdmin && project.accessLevel < (options.minimumLevel ?? 0)) throw new ForbiddenError();
  return project;
}
