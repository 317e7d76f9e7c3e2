import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import { pageParams, params, type PageQuery } from '@platform/http';
import { requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { codeReaders } from '../repositories/repository-access.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { NO_FACTS, type FactsOf, type ReactionLookup } from './merge-request-facts.ts';
import type { MergeRequestScope } from './merge-request-refs.ts';
import { mergeRequestDetailView, userIdsOf } from './merge-request-views.ts';
import type { Mergeability } from './mergeability.ts';
import type { MergeRequestsService } from './merge-requests-service.ts';
import type { MergeRequestsReadModel } from './merge-requests-read-model.ts';
import type { ApprovalCheck } from './merge-service.ts';
import type { PipelineState } from './auto-merge-store.ts';
import { headPipelineBasicView, headPipelineView } from './head-pipeline-views.ts';

/** The merge requests deployments shipped: the lists' `environment`, `deployed_after` and `deployed_before`. */
export interface DeployedMergeRequestIds {
  mergeRequestIds(filter: {
    environment?: string | undefined;
    deployedAfter?: Date | undefined;
    deployedBefore?: Date | undefined;
  }): Promise<number[]>;
}

/** What reading merge requests over HTTP and gRPC needs: their lists, single views and diffs. */
export interface MergeRequestsRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
  mergeRequests: MergeRequestsService;
  /** What the lists read through, without entities. */
  readModel: MergeRequestsReadModel;
  mergeability: Mergeability;
  users: UserDirectory;
  deployments: DeployedMergeRequestIds;
  labels: LabelsService;
  milestones: MilestonesService;
  /** What other features keep about merge requests that their views show. */
  facts: FactsOf;
  /** Where the `my_reaction_emoji` filter finds reactions. */
  reactions: ReactionLookup;
  /** Whether a merge request has the approvals it needs (its views' `approved`). */
  isApproved: ApprovalCheck;
  /** Its head pipeline and whether it merges when that succeeds (single views). */
  pipelineState: (mergeRequest: MergeRequest) => Promise<PipelineState>;
}

/**
 * The project behind `:id` and its repository, when the caller may read merge requests there
 * (and do more, with `minimumLevel`): 404 when the project is invisible, 403 with too little access.
 */
export async function scopeOf(
  deps: MergeRequestsRouteDeps,
  caller: Caller,
  idOrPath: string | number,
  minimumLevel = 0,
): Promise<MergeRequestScope> {
  const project = await readableProject(deps, caller, idOrPath, minimumLevel);
  return { project, repository: await deps.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId }) };
}

/**
 * `scopeOf` for a write to the project's merge requests: an archived project is read-only
 * (GitLab's policy prevents every write of its features there), 403 whoever asks.
 */
export async function writableScopeOf(
  deps: MergeRequestsRouteDeps,
  caller: Caller,
  idOrPath: string | number,
  minimumLevel = 0,
): Promise<MergeRequestScope> {
  const scope = await scopeOf(deps, caller, idOrPath, minimumLevel);
  if (scope.project.archived) throw new ForbiddenError();
  return scope;
}

/** The project behind `:id` when the caller may read merge requests there (`scopeOf` without its repository). */
export async function readableProject(
  deps: Pick<MergeRequestsRouteDeps, 'access'>,
  caller: Caller,
  idOrPath: string | number,
  minimumLevel = 0,
): Promise<MergeRequestScope['project']> {
  return requireProjectAccess({ access: deps.access, caller, idOrPath, ...codeReaders(minimumLevel) });
}

/** The commits and file diffs of a merge request's newest diff version (none before its first). */
export async function latestContents(deps: MergeRequestsRouteDeps, scope: MergeRequestScope, mergeRequest: MergeRequest) {
  const latest = await deps.mergeRequests.latestVersion(mergeRequest);
  return latest ? deps.mergeRequests.versionContents(scope.repository, latest) : { commits: [], diffs: [] };
}

/** The page the request asks for of a list computed whole (from git), with its total. */
export function pageOfList<Item, View>(input: PageQuery, items: Item[], view: (item: Item) => View) {
  const window = pageParams(input);
  return { window, items: items.slice(window.offset, window.offset + window.perPage).map(view), total: items.length };
}

export const iidParam = () => params.integer().pipe(z.number().int().positive());

export const perMergeRequest = { id: params.idOrPath(), merge_request_iid: iidParam() };

/** One merge request as its single views show it (`merge_request.json`), for the caller. */
export async function detail(
  deps: MergeRequestsRouteDeps,
  caller: Caller,
  scope: MergeRequestScope,
  mergeRequest: MergeRequest,
  options: { divergedCommitsCount?: boolean; fromOwnProject?: boolean } = {},
) {
  const [users, latest, approved, facts, pipelines] = await Promise.all([
    deps.users.users(userIdsOf([mergeRequest]), caller),
    deps.mergeRequests.latestVersion(mergeRequest),
    deps.isApproved(mergeRequest),
    deps.facts([mergeRequest], caller.kind === 'user' ? caller.userId : null),
    deps.pipelineState(mergeRequest),
  ]);
  const divergedCommitsCount = options.divergedCommitsCount
    ? await deps.mergeability.divergedCommitsCount(scope.repository, mergeRequest)
    : undefined;
  const view = mergeRequestDetailView(mergeRequest, {
    project: scope.project,
    users,
    fromOwnProject: options.fromOwnProject ?? true,
    latest,
    facts: facts.get(mergeRequest.id) ?? NO_FACTS,
    divergedCommitsCount,
    approved,
  });
  const { headPipeline, autoMerge } = pipelines;
  const baseUrl = new URL(scope.project.webUrl).origin;
  return {
    ...view,
    merge_when_pipeline_succeeds: autoMerge !== null,
    merge_user:
      view.merge_user ??
      (autoMerge && {
        id: autoMerge.mergeUserId,
        username: autoMerge.mergeUserUsername,
        name: autoMerge.mergeUserName,
        state: 'active',
        avatar_url: null,
        web_url: `${baseUrl}/${autoMerge.mergeUserUsername}`,
      }),
    pipeline: headPipeline && headPipelineBasicView(headPipeline),
    head_pipeline: headPipeline && headPipelineView(headPipeline, { baseUrl }),
  };
}
