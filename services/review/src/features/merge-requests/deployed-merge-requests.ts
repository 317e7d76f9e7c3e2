import type { ProjectRepository } from '../repositories/repositories-service.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import type { MergeRequestsService } from './merge-requests-service.ts';

/** Far more merged merge requests than a project has: a deployment is matched against all of them. */
const MERGED_LIMIT = 100_000;

/**
 * The commit that brought a merged merge request into its target: the merge commit, or, where the
 * merge made none (a fast-forward), the squash commit or the source head that the target moved to.
 */
function mergedCommitOf(mergeRequest: MergeRequest): string | null {
  return mergeRequest.mergeCommitSha ?? mergeRequest.squashCommitSha ?? mergeRequest.headSha ?? null;
}

/**
 * The merged merge requests of the repository's project that a deployment of `sha` shipped, as
 * GitLab links them: those whose merged commit is reachable from `sha` and not from
 * `previousSha` (the environment's previous successful deployment; everything reachable from
 * `sha` for its first). A sha the repository does not have ships nothing.
 */
export async function mergeRequestsDeployedBetween(options: {
  mergeRequests: MergeRequestsService;
  repository: ProjectRepository;
  sha: string;
  previousSha: string;
}): Promise<MergeRequest[]> {
  const { git } = options.repository;
  const head = await git.resolveCommit(options.sha);
  if (!head) return [];
  const previous = options.previousSha ? await git.resolveCommit(options.previousSha) : null;
  const shipped = new Set(await git.commitIds({ head, excluded: previous ? [previous] : [] }));
  const { items } = await options.mergeRequests.list({
    filter: { projectIds: [options.repository.projectId], states: ['merged'] },
    order: { by: 'created_at', direction: 'asc' },
    offset: 0,
    limit: MERGED_LIMIT,
  });
  return items.filter((mergeRequest) => {
    const merged = mergedCommitOf(mergeRequest);
    return merged !== null && shipped.has(merged);
  });
}
