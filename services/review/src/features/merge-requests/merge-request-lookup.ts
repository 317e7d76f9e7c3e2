import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { mayReadCode } from '../repositories/repository-access.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import type { MergeRequestsService } from './merge-requests-service.ts';

/** The project's member roles that matter around merge requests. */
export const GUEST = 10;
export const MAINTAINER = 40;

/**
 * The merge request behind `:id` and `:merge_request_iid` when the caller may read it: 404 when
 * the project is invisible or has no such merge request, 403 when the caller may not read its code.
 */
export async function readableMergeRequest(
  deps: { access: IdentityAccess; mergeRequests: MergeRequestsService },
  caller: Caller,
  input: { id: string | number; merge_request_iid: number },
): Promise<{ project: ProjectAccess; mergeRequest: MergeRequest }> {
  const project = await deps.access.project({ idOrPath: String(input.id), caller });
  if (!mayReadCode(project)) throw new ForbiddenError();
  return { project, mergeRequest: await deps.mergeRequests.get(project.id, input.merge_request_iid) };
}

/** GitLab's `is_project_member`: a locked discussion is closed to everybody else (administrators aside). */
export function isMember(project: ProjectAccess): boolean {
  return project.isAdmin || project.accessLevel >= GUEST;
}
