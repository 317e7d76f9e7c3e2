import type { ProjectAccess } from '@platform/identity-client';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import type { MergeRequest } from './merge-request.entity.ts';

export const BRANCH_PREFIX = 'refs/heads/';

/** A project's repository as the caller reaches it. */
export interface MergeRequestScope {
  project: ProjectAccess;
  repository: ProjectRepository;
}

/** Where a fork's repository is found, by project: a source branch may be in one. */
export interface RepositoryFinder {
  find(projectId: number): Promise<ProjectRepository | null>;
}

/** The ref that keeps a merge request's newest head reachable, whatever happens to its source branch (GitLab's). */
export function headRef(mergeRequest: MergeRequest): string {
  return `refs/merge-requests/${mergeRequest.iid}/head`;
}

/** Whether the merge request's source branch is in a fork of its (target) project. */
export function isFromFork(mergeRequest: Pick<MergeRequest, 'projectId' | 'sourceProjectId'>): boolean {
  return mergeRequest.sourceProjectId !== mergeRequest.projectId;
}

/** Who writes the commits a merge or rebase makes: the caller, as every commit the service writes for them. */
export { signatureOf } from '../repositories/commit-signature.ts';

export function branchHead(repository: ProjectRepository, branch: string): Promise<string | null> {
  return repository.git.resolveCommit(`${BRANCH_PREFIX}${branch}`);
}

/**
 * The head of the merge request's source branch, with its commits in the target repository: a
 * fork's head is fetched into the merge request's ref there when the target lacks it. Null when
 * the branch (or the fork) is gone.
 */
export async function sourceHead(options: {
  repositories: RepositoryFinder;
  target: ProjectRepository;
  mergeRequest: MergeRequest;
}): Promise<string | null> {
  const { target, mergeRequest } = options;
  if (!isFromFork(mergeRequest)) return branchHead(target, mergeRequest.sourceBranch);
  const source = await options.repositories.find(mergeRequest.sourceProjectId);
  const head = source ? await branchHead(source, mergeRequest.sourceBranch) : null;
  if (!source || !head) return null;
  if (!(await target.git.resolveCommit(head))) await target.git.fetchCommit({ source: source.git, sha: head, into: headRef(mergeRequest) });
  return head;
}
