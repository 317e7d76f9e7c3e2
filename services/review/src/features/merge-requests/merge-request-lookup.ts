import type { Caller } from '@platform/auth';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import { codeReaders } from '../repositories/repository-access.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import type { MergeRequestsService } from './merge-requests-service.ts';

/**
 * The merge request behind `:id` and `:merge_request_iid` when the caller may read it: 404 when
 * the project is invisible or has no such merge request, 403 when the caller may not read its code.
 */
export async function readableMergeRequest(
  deps: { access: IdentityAccess; mergeRequests: MergeRequestsService },
  caller: Caller,
  input: { id: string | number; merge_request_iid: number },
): Promise<{ project: ProjectAccess; mergeRequest: MergeRequest }> {
  const project = await requireProjectAccess({ access: deps.access, caller, idOrPath: input.id, ...codeReaders() });
  return { project, mergeRequest: await deps.mergeRequests.get(project.id, input.merge_request_iid) };
}

/** GitLab's `is_project_member`: a locked discussion is closed to everybody else (administrators aside). */
export function isMember(project: ProjectAccess): boolean {
  return project.isAdmin || project.accessLevel >= ACCESS_LEVEL.GUEST;
}
