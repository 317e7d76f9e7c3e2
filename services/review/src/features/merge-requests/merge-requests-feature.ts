import { readModelDatabase, type EntityManager, type Orm } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { handleJob, type Feature } from '@platform/service';
import type { IssuableHistory } from '../core/issuable-history.ts';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { CreateMergeRequestService, type ApproversOverridable } from './create-merge-request-service.ts';
import { forkEventHandlers } from './fork-events.ts';
import { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import { HeadPipeline, MergeRequestAutoMerge } from './auto-merge.entity.ts';
import { autoMergeEventHandlers } from './auto-merge-events.ts';
import { autoMergeJob } from './auto-merge.jobs.ts';
import { AutoMergeService, type MergeRequestSystemNote } from './auto-merge-service.ts';
import { PgAutoMergeStore } from './auto-merge-store.ts';
import { mergeRequestEditsRoutes } from './merge-request-edits-routes.ts';
import { MergeRequestPipelinesReadModel } from './merge-request-pipelines-read-model.ts';
import { mergeRequestPipelinesRoutes } from './merge-request-pipelines-routes.ts';
import { factsFrom, type FactsSource, type ReactionLookup } from './merge-request-facts.ts';
import type { DeployedMergeRequestIds, MergeRequestsRouteDeps } from './merge-request-route-support.ts';
import { MergeRequestVersions, type VersionListener } from './merge-request-versions.ts';
import { Mergeability } from './mergeability.ts';
import { mergeRequestsGrpc } from './merge-requests-grpc.ts';
import { mergeRequestsRoutes } from './merge-requests-routes.ts';
import { MergeRequestsService } from './merge-requests-service.ts';
import { MergeRequestsReadModel } from './merge-requests-read-model.ts';
import { PgMergeRequestStore, type MergeRequestStore } from './merge-requests-store.ts';
import { mergeRoutes } from './merge-routes.ts';
import { MergeService, type ApprovalCheck, type MergeListener } from './merge-service.ts';
import { RebaseService } from './rebase-service.ts';
import { RefreshService } from './refresh-service.ts';
import { UpdateMergeRequestService, type ClosingIssuesRefresher } from './update-merge-request-service.ts';

export const mergeRequestsEntities = [MergeRequest, MergeRequestDiff, HeadPipeline, MergeRequestAutoMerge];

/** Merge requests as other features read them, built before those features; the operations come with the feature. */
export interface MergeRequestsCore {
  /** What the merge request services open their transactions on. */
  em: EntityManager;
  store: MergeRequestStore;
  /** What the lists read through, without entities. */
  readModel: MergeRequestsReadModel;
  mergeability: Mergeability;
  mergeRequests: MergeRequestsService;
  /** What each change writes to the merge request's history (the resource events feature's). */
  history: IssuableHistory;
}

export function createMergeRequestsCore(deps: {
  em: EntityManager;
  repositories: RepositoriesService;
  logger: Logger;
  history: IssuableHistory;
}): MergeRequestsCore {
  const { em, history } = deps;
  const store = new PgMergeRequestStore(em);
  const mergeability = new Mergeability({ em, store, repositories: deps.repositories, logger: deps.logger });
  return {
    em,
    store,
    readModel: new MergeRequestsReadModel(readModelDatabase(deps.em)),
    mergeability,
    mergeRequests: new MergeRequestsService({ em, store, mergeability, history }),
    history,
  };
}

/** What approvals decide about merge requests: whether one may merge, whether it may set its own approvals, what a new diff version does to it. */
export interface MergeRequestApprovals {
  isApproved: ApprovalCheck;
  mayOverrideApprovers: ApproversOverridable;
  onNewVersion: VersionListener;
}

export interface MergeRequestsFeature extends Feature {
  /** Updates merge requests (approvals set `approvals_before_merge` through it). */
  updates: UpdateMergeRequestService;
  /** What features that show merge requests (subscriptions, to-dos) read them with. */
  routeDeps: MergeRequestsRouteDeps;
}

/**
 * Merge requests over HTTP and gRPC, one service per operation (create, update with close and
 * reopen, merge, rebase, refresh on push): they follow pushes to their branches (a fork's too),
 * wait for approvals to merge, their lists find those deployments shipped, and those from a fork
 * close once it leaves its network.
 */
export function createMergeRequestsFeature(deps: {
  /** What gRPC calls open their units of work on. */
  orm: Orm;
  core: MergeRequestsCore;
  logger: Logger;
  access: IdentityAccess;
  repositories: RepositoriesService;
  protectedBranches: ProtectedBranchesService;
  users: UserDirectory;
  labels: LabelsService;
  milestones: MilestonesService;
  deployments: DeployedMergeRequestIds;
  approvals: MergeRequestApprovals;
  /** Each feature's part of what merge request views show (notes counted, reactions, subscriptions). */
  facts: FactsSource[];
  reactions: ReactionLookup;
  /** Told of every merge once it was recorded (issues close those it names). */
  afterMerge: MergeListener[];
  /** Writes the system notes of automatic merges (the notes feature's). */
  systemNote: MergeRequestSystemNote;
  /** Keeps the issues each merge request closes (the issues feature's). */
  closingIssues: ClosingIssuesRefresher;
}): MergeRequestsFeature {
  const { repositories, logger, approvals, protectedBranches } = deps;
  const { em, store, mergeability, mergeRequests, history } = deps.core;
  // New commits (created, pushed, retargeted) are read for closing references, as their author reads them.
  const closingIssuesOfVersion: VersionListener = ({ mergeRequest, repository }) =>
    em.transactional(() => deps.closingIssues.refresh({ mergeRequest, repository }));
  const versions = new MergeRequestVersions({
    em,
    store,
    listeners: [(version) => approvals.onNewVersion(version), closingIssuesOfVersion],
  });
  const approversOverridable: ApproversOverridable = (projectId) => approvals.mayOverrideApprovers(projectId);
  const refresh = new RefreshService({ em, store, repositories, versions, mergeability });
  repositories.onRefsChanged(({ projectId, changes }) => refresh.onRefsChanged(projectId, changes));
  const autoMergeStore = new PgAutoMergeStore(em);
  const { labels, milestones } = deps;
  const routeDeps: MergeRequestsRouteDeps = {
    access: deps.access,
    repositories,
    mergeRequests,
    readModel: deps.core.readModel,
    mergeability,
    users: deps.users,
    deployments: deps.deployments,
    labels,
    milestones,
    facts: factsFrom([
      async (items) => new Map([...(await milestones.carriedBy(items))].map(([id, milestone]) => [id, { milestone }])),
      ...deps.facts,
    ]),
    reactions: deps.reactions,
    isApproved: (mergeRequest) => approvals.isApproved(mergeRequest),
    pipelineState: (mergeRequest) => autoMergeStore.state(mergeRequest),
  };
  const creation = new CreateMergeRequestService({ em, store, versions, mergeability, approversOverridable, history });
  const merges = new MergeService({
    em,
    store,
    history,
    repositories,
    protectedBranches,
    isApproved: routeDeps.isApproved,
    headPipelineStatus: async (mergeRequest) => (await autoMergeStore.headPipeline(mergeRequest))?.status ?? null,
    discussionsResolved: async (mergeRequest) =>
      (await routeDeps.facts([mergeRequest], null)).get(mergeRequest.id)?.blockingDiscussionsResolved ?? true,
    afterMerge: deps.afterMerge,
    logger,
  });
  const autoMerges = new AutoMergeService({
    em,
    store: autoMergeStore,
    mergeRequests: store,
    merges,
    access: deps.access,
    repositories,
    logger,
    systemNote: deps.systemNote,
  });
  repositories.onRefsChanged(({ projectId, changes }) => autoMerges.onRefsChanged(projectId, changes));
  const updates = new UpdateMergeRequestService({
    em,
    store,
    repositories,
    versions,
    mergeability,
    approversOverridable,
    autoMerges,
    history,
    closingIssues: deps.closingIssues,
  });
  const rebases = new RebaseService({ store, repositories, protectedBranches, logger });
  return {
    updates,
    routeDeps,
    routes: [
      createRouter(mergeRequestsRoutes, routeDeps),
      createRouter(mergeRequestEditsRoutes, { ...routeDeps, creation, updates }),
      createRouter(mergeRoutes, { ...routeDeps, merges, rebases, autoMerges }),
      createRouter(mergeRequestPipelinesRoutes, {
        access: deps.access,
        pipelines: new MergeRequestPipelinesReadModel(readModelDatabase(em)),
      }),
    ],
    rpcs: [mergeRequestsGrpc({ orm: deps.orm, deps: routeDeps, logger })],
    consumes: [...forkEventHandlers({ mergeRequests, autoMerges }), ...autoMergeEventHandlers(autoMerges)],
    jobs: [handleJob(autoMergeJob, ({ mergeRequestId }) => autoMerges.carryOut(mergeRequestId))],
  };
}
