import type { Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import {
  ACCESS_LEVEL,
  hasProjectAccess,
  requireProjectAccess,
  type IdentityAccess,
  type ProjectAccess,
  type ProjectAccessRequirement,
} from '@platform/identity-client';

/** Who may see a project's issues, labels and milestones: anybody who sees a public or internal project, guests and above on a private one. */
function issueReaders(minimumLevel: number = ACCESS_LEVEL.NO_ACCESS): ProjectAccessRequirement {
  return { minimumLevel, privateMinimumLevel: ACCESS_LEVEL.GUEST };
}

/** Reporters and above manage labels and milestones and triage issues (GitLab's `admin_label`, `admin_milestone`, `admin_issue`). */
export function mayManageIssues(project: ProjectAccess): boolean {
  return hasProjectAccess(project, { minimumLevel: ACCESS_LEVEL.REPORTER });
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
  return requireProjectAccess({
    access: options.access,
    caller: options.caller,
    idOrPath: options.idOrPath,
    ...issueReaders(options.minimumLevel),
  });
}

/** Whether the caller sees an issue: a confidential one only reporters and above, its author and its assignees do. */
export function issueVisibleTo(
  project: ProjectAccess,
  caller: Caller,
  issue: { confidential: boolean; authorId: number; assigneeIds: number[] },
): boolean {
  if (!issue.confidential || mayManageIssues(project)) return true;
  return caller.kind === 'user' && (issue.authorId === caller.userId || issue.assigneeIds.includes(caller.userId));
}

/** Whether the caller, as identity answered for the issue's project, may read the issue (GitLab's `read_issue`). */
export function mayReadIssue(
  project: ProjectAccess,
  caller: Caller,
  issue: { confidential: boolean; authorId: number; assigneeIds: number[] },
): boolean {
  return hasProjectAccess(project, issueReaders()) && issueVisibleTo(project, caller, issue);
}

/**
 * The group a project belongs to, when the caller may manage its labels and milestones there
 * (GitLab's `admin_label` and `admin_milestone` on `user_project.group`, what promotion asks):
 * 403 for a project of a user's namespace, or too little access to its group.
 */
export async function projectGroup(options: { access: IdentityAccess; caller: Caller; project: ProjectAccess }): Promise<number> {
  const namespaceId = options.project.namespaceIds.at(-1);
  if (namespaceId === undefined) throw new ForbiddenError();
  try {
    return await options.access.require({
      resource: 'group',
      idOrPath: String(namespaceId),
      caller: options.caller,
      minimumLevel: ACCESS_LEVEL.REPORTER,
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw new ForbiddenError();
    throw error;
  }
}
