import { z } from 'zod';
import type { Caller } from '@platform/auth';
import type { PageRequest } from '@platform/http';
import type { ProjectAccess } from '@platform/identity-client';
import type { GitRepository } from '../repositories/git-repository.ts';
import type { CommitRange } from './merge-requests-read-model.ts';
import { listPage, listShape } from './merge-request-finder.ts';
import type { MergeRequestsRouteDeps } from './merge-request-route-support.ts';

/** Whether `sha` is one of a range's commits: its merge or squash commit, or after the version's base up to its head. */
async function rangeContains(git: GitRepository, range: CommitRange, sha: string): Promise<boolean> {
  if (range.mergeCommitSha === sha || range.squashCommitSha === sha) return true;
  if (!range.baseCommitSha || !range.headCommitSha) return false;
  return (await git.isAncestor(sha, range.headCommitSha)) && !(await git.isAncestor(sha, range.baseCommitSha));
}

/**
 * The merge requests of a project whose changes contain a commit (GitLab's `commit_sha` filter): a
 * diff version brought it, or merging wrote it. Listed as the project's merge request list shows them.
 */
export function commitMergeRequests(deps: MergeRequestsRouteDeps) {
  return {
    async list(options: {
      caller: Caller;
      project: ProjectAccess;
      git: GitRepository;
      sha: string;
      state: z.output<typeof listShape.state>;
      window: PageRequest;
    }) {
      const { project, git, sha } = options;
      const ids = new Set<number>();
      for (const range of await deps.readModel.commitRanges(project.id)) {
        if (!ids.has(range.mergeRequestId) && (await rangeContains(git, range, sha))) ids.add(range.mergeRequestId);
      }
      const input = z.object(listShape).parse({ state: options.state });
      return listPage({
        deps,
        caller: options.caller,
        input,
        filter: { projectIds: [project.id], ids: [...ids], ...(options.state === 'all' ? {} : { states: [options.state] }) },
        window: options.window,
        projectOf: async () => project,
        fromOwnProject: true,
        acrossProjects: false,
      });
    },
  };
}
