/** Composition root of the review service: project repositories, git over HTTP, branches, protected branches, commits, merge requests and approvals, labels, milestones and issues. */
import { actorOf } from '@platform/auth';
import { applicationSettingsFeature, applicationSettingsSource, type ApplicationSettingsSource } from '@platform/admin-client';
import { runService, type ServiceDefinition } from '@platform/service';
import { createRouter } from '@platform/http';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { readConfig, type ReviewConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { Repository } from './features/repositories/repository.entity.ts';
import { PgRepositoryStore } from './features/repositories/repositories-store.ts';
import { RepositoriesService } from './features/repositories/repositories-service.ts';
import { RepositoryStorages } from './features/repositories/repository-storages.ts';
import { IdentityDefaultBranch } from './features/repositories/identity-default-branch.ts';
import { REVIEW_TOPIC } from '@platform/review-client';
import { projectEventHandlers } from './features/repositories/project-events.ts';
import { smartHttpRoutes, type SmartHttpDeps } from './features/smart-http/smart-http-router.ts';
import { BranchesService } from './features/branches/branches-service.ts';
import { branchesRoutes } from './features/branches/branches-routes.ts';
import { commitsRoutes } from './features/commits/commits-routes.ts';
import { ProtectedBranch, ProtectedBranchAccessLevel } from './features/protected-branches/protected-branch.entity.ts';
import { PgProtectedBranchStore } from './features/protected-branches/protected-branches-store.ts';
import { ProtectedBranchesService } from './features/protected-branches/protected-branches-service.ts';
import { protectedBranchesRoutes, type ProtectedBranchesRouteDeps } from './features/protected-branches/protected-branches-routes.ts';
import { PreReceiveHook } from './features/protected-branches/pre-receive-hook.ts';
import { MergeRequest, MergeRequestDiff } from './features/merge-requests/merge-request.entity.ts';
import { PgMergeRequestStore } from './features/merge-requests/merge-requests-store.ts';
import { MergeRequestsService } from './features/merge-requests/merge-requests-service.ts';
import { mergeRequestsRoutes } from './features/merge-requests/merge-requests-routes.ts';
import { mergeRequestsGrpc } from './features/merge-requests/merge-requests-grpc.ts';
import { MergeRequestDeployment } from './features/deployments/merge-request-deployment.entity.ts';
import { PgMergeRequestDeploymentStore } from './features/deployments/merge-request-deployments-store.ts';
import { deploymentEventHandlers } from './features/deployments/deployment-events.ts';
import { GrpcUserDirectory, type UserDirectory } from './features/merge-requests/user-directory.ts';
import { approvalsEntities, createApprovalsFeature } from './features/approvals/approvals-feature.ts';
import { GrpcApproverDirectory } from './features/approvals/approver-directory.ts';
import { createNotesFeature, notesEntities } from './features/notes/notes-feature.ts';
import { createSubscriptionsFeature, subscriptionsEntities } from './features/subscriptions/subscriptions-feature.ts';
import { createStorageMovesFeature, storageMovesEntities } from './features/storage-moves/storage-moves-feature.ts';
import { awardEmojiEntities, createAwardEmojiFeature } from './features/award-emoji/award-emoji-feature.ts';
import { timeTrackingRoutes } from './features/time-tracking/time-tracking-routes.ts';
import { createTodosFeature, todosEntities } from './features/todos/todos-feature.ts';
import { createLabelsFeature, labelsEntities } from './features/labels/labels-feature.ts';
import { createIssuesFeature, issuesEntities } from './features/issues/issues-feature.ts';

/** `applicationSettings` replaces the admin service's settings, `identityAccess` and `users` the gRPC clients to identity (tests give fakes). */
export function reviewService(
  config: ReviewConfig,
  clients: { applicationSettings?: ApplicationSettingsSource; identityAccess?: IdentityAccess; users?: UserDirectory } = {},
): ServiceDefinition<ReviewConfig> {
  return {
    name: 'review',
    config,
    entities: [
      Repository,
      ProtectedBranch,
      ProtectedBranchAccessLevel,
      MergeRequest,
      MergeRequestDiff,
      MergeRequestDeployment,
      ...approvalsEntities,
      ...notesEntities,
      ...subscriptionsEntities,
      ...storageMovesEntities,
      ...labelsEntities,
      ...awardEmojiEntities,
      ...todosEntities,
      ...issuesEntities,
    ],
    migrations,
    publishes: [REVIEW_TOPIC],
    features: ({ em, logger }) => {
      const identity = { address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET };
      const settings =
        clients.applicationSettings ??
        applicationSettingsSource({
          address: config.ADMIN_GRPC_ADDRESS,
          internalSecret: config.INTERNAL_SECRET,
          service: 'review',
          kafkaBrokers: config.KAFKA_BROKERS,
          topicPrefix: config.KAFKA_TOPIC_PREFIX,
          logger,
        });
      const storages = new RepositoryStorages(config.REPOSITORY_STORAGES);
      const repositoryStore = new PgRepositoryStore(em);
      const access = clients.identityAccess ?? new GrpcIdentityAccess(identity);
      const defaultBranch = new IdentityDefaultBranch(identity);
      const directory = new GrpcApproverDirectory(identity);
      const protectedBranches = new ProtectedBranchesService({ store: new PgProtectedBranchStore(em), groups: directory });
      const preReceiveHook = new PreReceiveHook({ dataDirectory: config.DATA_DIR });
      const repositories = new RepositoriesService({
        store: repositoryStore,
        storages,
        settings,
        logger,
        onDefaultBranch: async (chosen) => {
          // The pusher may see the project: its path names it in the protection's audit event.
          const path = await access.project({ idOrPath: String(chosen.projectId), caller: chosen.caller }).then(
            (project) => project.pathWithNamespace,
            () => '',
          );
          const change = { project: { id: chosen.projectId, path }, actor: actorOf(chosen.caller) };
          await protectedBranches.protectDefaultBranch(change, chosen.branch);
          await defaultBranch.set(chosen);
        },
      });
      const branches = new BranchesService({ repositories });
      const planning = createLabelsFeature({ em, access });
      const users = clients.users ?? new GrpcUserDirectory(identity);
      const mergeRequests = new MergeRequestsService({ store: new PgMergeRequestStore(em), repositories, protectedBranches, logger });
      repositories.onRefsChanged(({ projectId, changes }) => mergeRequests.onRefsChanged(projectId, changes));
      const deployments = new PgMergeRequestDeploymentStore(em);
      const pushEnvironment: SmartHttpDeps['pushEnvironment'] = async ({ project, repository, pusher }) =>
        preReceiveHook.environment(
          await protectedBranches.pushPolicy({
            projectId: project.id,
            pusher: await protectedBranches.actorOf({
              projectId: project.id,
              userId: pusher.userId,
              accessLevel: project.accessLevel,
              isAdmin: project.isAdmin,
            }),
            defaultBranch: await repository.git.headBranch(),
          }),
        );
      const entryNames: ProtectedBranchesRouteDeps['entryNames'] = async ({ userIds, groupIds }, caller) => {
        const [named, groups] = await Promise.all([users.users(userIds, caller), directory.groups(groupIds)]);
        return {
          users: new Map([...named].map(([id, user]) => [id, user.name])),
          groups: new Map([...groups].map(([id, group]) => [id, group.name])),
        };
      };
      return [
        {
          routes: [
            createRouter(branchesRoutes, { access, repositories, branches, protectedBranches }),
            createRouter(commitsRoutes, { access, repositories }),
            createRouter(protectedBranchesRoutes, { access, protectedBranches, entryNames }),
            createRouter(mergeRequestsRoutes, { access, repositories, mergeRequests, users, deployments }),
            createRouter(timeTrackingRoutes, { access, mergeRequests }),
          ],
          rpcs: [mergeRequestsGrpc({ deps: { access, repositories, mergeRequests, users, deployments }, logger })],
          streamingRoutes: [smartHttpRoutes({ access, repositories, logger, pushEnvironment })],
          consumes: [
            ...projectEventHandlers(repositories, access),
            ...deploymentEventHandlers({ repositories, mergeRequests, deployments }),
          ],
          start: () => preReceiveHook.install(),
          stop: () => {
            defaultBranch.close();
            if (users instanceof GrpcUserDirectory) users.close();
            directory.close();
          },
        },
        planning.feature,
        createIssuesFeature({ em, access, ...planning, users, mergeRequests, repositories, settings }),
        createApprovalsFeature({ em, directory, access, repositories, mergeRequests, protectedBranches, users }),
        createNotesFeature({ em, access, mergeRequests, users }),
        createSubscriptionsFeature({ em, access, repositories, mergeRequests, users, deployments }),
        createStorageMovesFeature({
          em,
          logger,
          access,
          identity,
          repositories,
          repositoryStore,
          storages,
          settings,
          pollIntervalMs: config.STORAGE_MOVES_POLL_INTERVAL_MS,
          claimMs: config.STORAGE_MOVES_CLAIM_MS,
        }),
        applicationSettingsFeature(settings),
        createAwardEmojiFeature({ em, access, mergeRequests, users }),
        createTodosFeature({ em, access, mergeRequests, users }),
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(reviewService(readConfig()));
