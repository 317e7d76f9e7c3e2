import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import type { AutoMergeService } from './auto-merge-service.ts';
import { params, routesOf } from '@platform/http';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { mayPushCode } from '../repositories/repository-access.ts';
import { isFromFork } from './merge-request-refs.ts';
import { detail, perMergeRequest, scopeOf, type MergeRequestsRouteDeps } from './merge-request-route-support.ts';
import type { MergeService } from './merge-service.ts';
import type { RebaseService } from './rebase-service.ts';

export interface MergeRoutesDeps extends MergeRequestsRouteDeps {
  merges: MergeService;
  rebases: RebaseService;
  autoMerges: AutoMergeService;
}

const route = routesOf<MergeRoutesDeps>('review');

/** Whether the caller may push to a project's branches (a fork a merge request's source is in); false when it is gone or unseen. */
async function mayPushTo(deps: MergeRoutesDeps, caller: Caller, projectId: number): Promise<boolean> {
  return deps.access.project({ idOrPath: String(projectId), caller }).then(mayPushCode, (error: unknown) => {
    if (error instanceof NotFoundError) return false;
    throw error;
  });
}

/** Merge requests merged (by the project's merge method) and their source branches rebased. */
export const mergeRoutes = [
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/merge',
    access: 'user',
    scope: 'api',
    input: z.object({
      ...perMergeRequest,
      sha: z.string().max(64).optional(),
      squash: params.boolean().optional(),
      should_remove_source_branch: params.boolean().optional(),
      merge_commit_message: z.string().min(1).max(65_536).optional(),
      squash_commit_message: z.string().min(1).max(65_536).optional(),
      merge_when_pipeline_succeeds: params.boolean().optional(),
      auto_merge: params.boolean().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      // Readers find it (404 otherwise); who may not merge it is refused with GitLab's 401 (`can_be_merged_by?`).
      const scope = await scopeOf(deps, caller, input.id);
      const existing = await deps.mergeRequests.find(scope.project.id, input.merge_request_iid);
      if (!existing) throw new NotFoundError('Merge Request');
      const options = {
        sha: input.sha,
        mayPushToForkSource: isFromFork(existing) ? await mayPushTo(deps, caller, existing.sourceProjectId) : false,
        squash: input.squash,
        shouldRemoveSourceBranch: input.should_remove_source_branch,
        mergeCommitMessage: input.merge_commit_message,
        squashCommitMessage: input.squash_commit_message,
      };
      const merged =
        input.merge_when_pipeline_succeeds || input.auto_merge
          ? await deps.autoMerges.mergeWhenPipelineSucceeds(scope, caller, input.merge_request_iid, options)
          : await deps.merges.merge(scope, caller, input.merge_request_iid, options);
      return detail(deps, caller, scope, merged);
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      return detail(deps, caller, scope, await deps.autoMerges.cancel(scope, caller, input.merge_request_iid));
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/rebase',
    access: 'user',
    scope: 'api',
    status: 202,
    // No pipelines run here: `skip_ci` is accepted and has nothing to skip.
    input: z.object({ ...perMergeRequest, skip_ci: params.boolean().optional() }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      // Pushing takes a developer; the branch's own protection is weighed once the merge request is found.
      if (!scope.project.isAdmin && scope.project.accessLevel < ACCESS_LEVEL.DEVELOPER)
        throw new ForbiddenError('Cannot push to source branch');
      await deps.rebases.rebase(scope, caller, input.merge_request_iid);
      return { rebase_in_progress: true };
    },
  }),
];
