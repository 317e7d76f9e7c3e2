import type { ProjectAccess } from '@platform/identity-client';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import { closedIssueIids } from './closing-references.ts';

/**
 * The iids of the project's issues a merge request closes, as GitLab reads them: closing
 * references in its title, description and commit messages, only when it targets the default branch.
 */
export async function closingIssueIids(options: {
  mergeRequest: MergeRequest;
  project: ProjectAccess;
  repository: ProjectRepository;
  mergeRequests: MergeRequestsService;
}): Promise<number[]> {
  const { mergeRequest, project, repository, mergeRequests } = options;
  const defaultBranch = project.defaultBranch || (await repository.git.headBranch());
  if (mergeRequest.targetBranch !== defaultBranch) return [];
  const latest = await mergeRequests.latestVersion(mergeRequest);
  const commits = latest ? (await mergeRequests.versionContents(repository, latest)).commits : [];
  const text = [mergeRequest.title, mergeRequest.description, ...commits.map((commit) => commit.message)].join('\n');
  return closedIssueIids(text, project);
}
