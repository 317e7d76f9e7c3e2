/** Composition root of the review service: project repositories, git over HTTP, branches, protected branches, commits, merge requests and approvals, labels, milestones and issues. */
import { applicationSettingsFeature, applicationSettingsSource, type ApplicationSettingsSource } from '@platform/admin-client';
import { runService, type ServiceDefinition } from '@platform/service';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { REVIEW_TOPIC } from '@platform/review-client';
import type { EventFeed } from '@platform/events';
import { readConfig, type ReviewConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { createRepositoriesFeature, repositoriesEntities } from './features/repositories/repositories-feature.ts';
import { createSmartHttpFeature } from './features/smart-http/smart-http-feature.ts';
import { createBranchesFeature } from './features/branches/branches-feature.ts';
import { createCommitsFeature } from './features/commits/commits-feature.ts';
import { createRepositoryFilesFeature } from './features/repository-files/repository-files-feature.ts';
import { createRepositoryTreeFeature } from './features/repository-tree/repository-tree-feature.ts';
import { createRepositoryBlobsFeature } from './features/repository-blobs/repository-blobs-feature.ts';
import { createRepositoryArchiveFeature } from './features/repository-archive/repository-archive-feature.ts';
import { createRepositoryCompareFeature } from './features/repository-compare/repository-compare-feature.ts';
import { createTagsFeature } from './features/tags/tags-feature.ts';
import { createRepositoryWrites } from './features/repository-writes/repository-writes-feature.ts';
import { createProtectedBranchesFeature, protectedBranchesEntities } from './features/protected-branches/protected-branches-feature.ts';
import { createProtectedTagsFeature, protectedTagsEntities } from './features/protected-tags/protected-tags-feature.ts';
import {
  createMergeRequestsCore,
  createMergeRequestsFeature,
  mergeRequestsEntities,
} from './features/merge-requests/merge-requests-feature.ts';
import { commitMergeRequests } from './features/merge-requests/commit-merge-requests.ts';
import { GrpcUserDirectory, type UserDirectory } from './features/core/user-directory.ts';
import { FollowedUserDirectory } from './features/core/followed-user-directory.ts';
import { followUserEvents } from './features/core/identity-user-events.ts';
import { createTimeTrackingFeature } from './features/time-tracking/time-tracking-feature.ts';
import { approvalsEntities, createApprovals, createApprovalsFeature } from './features/approvals/approvals-feature.ts';
import { GrpcApproverDirectory } from './features/approvals/approver-directory.ts';
import { createNotes, createNotesFeature, notesEntities } from './features/notes/notes-feature.ts';
import { mergeRequestNoteable } from './features/notes/noteable.ts';
import {
  createResourceEvents,
  createResourceEventsFeature,
  resourceEventsEntities,
} from './features/resource-events/resource-events-feature.ts';
import { createSubscriptionsFeature, subscribedFacts, subscriptionsEntities } from './features/subscriptions/subscriptions-feature.ts';
import { SubscriptionsService } from './features/subscriptions/subscriptions-service.ts';
import { PgSubscriptionStore } from './features/subscriptions/subscriptions-store.ts';
import { createStorageMovesFeature, storageMovesEntities } from './features/storage-moves/storage-moves-feature.ts';
import { awardEmojiEntities, createAwardEmojiFeature } from './features/award-emoji/award-emoji-feature.ts';
import { createTodosFeature, todosEntities } from './features/todos/todos-feature.ts';
import { createLabelsFeature, labelsEntities } from './features/labels/labels-feature.ts';
import { createMilestonesFeature, milestonesEntities } from './features/milestones/milestones-feature.ts';
import { createIssuesFeature, createMilestoneItemsFeature, issuesEntities } from './features/issues/issues-feature.ts';
import { createDeploymentsFeature, deploymentsEntities } from './features/deployments/deployments-feature.ts';
import { PgMergeRequestDeploymentStore } from './features/deployments/merge-request-deployments-store.ts';

/** `applicationSettings` replaces the admin service's settings, `identityAccess` and `users` the gRPC clients to identity (tests give fakes). */
export function reviewService(
  config: ReviewConfig,
  clients: { applicationSettings?: ApplicationSettingsSource; identityAccess?: IdentityAccess; users?: UserDirectory } = {},
): ServiceDefinition<ReviewConfig> {
  return {
    name: 'review',
    config,
    entities: [
      ...repositoriesEntities,
      ...protectedBranchesEntities,
      ...protectedTagsEntities,
      ...mergeRequestsEntities,
      ...deploymentsEntities,
      ...approvalsEntities,
      ...notesEntities,
      ...resourceEventsEntities,
      ...subscriptionsEntities,
      ...storageMovesEntities,
      ...labelsEntities,
      ...milestonesEntities,
      ...awardEmojiEntities,
      ...todosEntities,
      ...issuesEntities,
    ],
    migrations,
    publishes: [REVIEW_TOPIC],
    features: ({ em, orm, logger }) => {
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
      const access = clients.identityAccess ?? new GrpcIdentityAccess(identity);
      // Users' summaries are kept while identity's user events reach this replica (every list asks for its page's users).
      let userEvents: EventFeed | undefined;
      const users: UserDirectory =
        clients.users ??
        new FollowedUserDirectory({ directory: new GrpcUserDirectory(identity), followed: () => userEvents?.isLive() ?? false });
      const followedUsers = users instanceof FollowedUserDirectory ? users : undefined;
      const directory = new GrpcApproverDirectory(identity);
      const protectedTagsFeature = createProtectedTagsFeature({ em, access });
      const { protectedTags } = protectedTagsFeature;
      const protectedBranchesFeature = createProtectedBranchesFeature({
        em,
        orm,
        logger,
        access,
        users,
        groups: directory,
        dataDirectory: config.DATA_DIR,
        tags: protectedTags,
      });
      const { protectedBranches, pushEnvironment } = protectedBranchesFeature;
      const repositoriesFeature = createRepositoriesFeature({
        em,
        orm,
        logger,
        access,
        identity,
        settings,
        storages: config.REPOSITORY_STORAGES,
        protectedBranches,
      });
      const { repositories } = repositoriesFeature;
      const writes = createRepositoryWrites({ repositories, rules: protectedBranches });
      const labelsFeature = createLabelsFeature({ em, access, namespaceIdsOf: (projectId) => users.namespaceIdsOf(projectId) });
      const milestonesFeature = createMilestonesFeature({ em, access, namespaceIdsOf: (projectId) => users.namespaceIdsOf(projectId) });
      const { labels } = labelsFeature;
      const { milestones } = milestonesFeature;
      const deployments = new PgMergeRequestDeploymentStore(em);
      // The history of merge requests and issues (system notes, resource events) before the features whose changes write it.
      const notes = createNotes({ em, access });
      const resourceEvents = createResourceEvents({ em, notes });
      const { history } = resourceEvents;
      // Merge requests as other features read them first; their operations once approvals, issues and the views' facts exist.
      const core = createMergeRequestsCore({ em, repositories, logger, history });
      const { mergeRequests } = core;
      const approvals = createApprovals({ em, directory, repositories, mergeRequests, protectedBranches });
      const issuesFeature = createIssuesFeature({ em, access, labels, milestones, users, mergeRequests, repositories, settings, history });
      const notesFeature = createNotesFeature({ notes, access, mergeRequests, issues: issuesFeature.issues, repositories, users });
      const awardEmojiFeature = createAwardEmojiFeature({ em, access, mergeRequests, users });
      const subscriptions = new SubscriptionsService({ store: new PgSubscriptionStore(em) });
      const mergeRequestsFeature = createMergeRequestsFeature({
        orm,
        core,
        logger,
        access,
        repositories,
        protectedBranches,
        users,
        labels,
        milestones,
        deployments,
        approvals,
        facts: [notesFeature.facts, awardEmojiFeature.facts, subscribedFacts(subscriptions)],
        reactions: awardEmojiFeature.reactions,
        afterMerge: [issuesFeature.closeMergedIssues],
        closingIssues: issuesFeature.closingIssues,
        systemNote: ({ mergeRequest, actor, body }) =>
          notes.recordSystemNote({ noteable: mergeRequestNoteable(mergeRequest), actor, body }),
      });
      const { routeDeps } = mergeRequestsFeature;
      return [
        repositoriesFeature,
        createSmartHttpFeature({ orm, access, repositories, logger, pushEnvironment }),
        createBranchesFeature({ access, repositories, protectedBranches, writes }),
        createTagsFeature({ access, repositories, writes, protections: protectedTags }),
        createCommitsFeature({
          orm,
          access,
          repositories,
          logger,
          writer: writes.commits,
          picker: writes.picker,
          mergeRequests: commitMergeRequests(routeDeps),
        }),
        createRepositoryFilesFeature({ access, repositories, commits: writes.commits }),
        createRepositoryTreeFeature({ access, repositories }),
        createRepositoryBlobsFeature({ access, repositories }),
        createRepositoryArchiveFeature({ access, repositories }),
        createRepositoryCompareFeature({ access, repositories }),
        protectedBranchesFeature,
        protectedTagsFeature,
        mergeRequestsFeature,
        createDeploymentsFeature({ repositories, mergeRequests, deployments }),
        createTimeTrackingFeature({ access, mergeRequests }),
        labelsFeature,
        milestonesFeature,
        issuesFeature,
        createMilestoneItemsFeature({ ...issuesFeature.routeDeps, ...routeDeps }),
        createApprovalsFeature({
          approvals,
          directory,
          access,
          repositories,
          mergeRequests,
          updates: mergeRequestsFeature.updates,
          protectedBranches,
          users,
        }),
        notesFeature,
        createResourceEventsFeature({
          events: resourceEvents,
          access,
          mergeRequests,
          issues: issuesFeature.issues,
          repositories,
          users,
          milestones,
          labels,
        }),
        createSubscriptionsFeature({ ...routeDeps, subscriptions }),
        createStorageMovesFeature({
          em,
          logger,
          access,
          identity,
          repositories,
          repositoryStore: repositoriesFeature.store,
          storages: repositoriesFeature.storages,
          settings,
        }),
        applicationSettingsFeature(settings),
        awardEmojiFeature,
        createTodosFeature({ em, access, mergeRequests, facts: routeDeps.facts, users, issues: issuesFeature.issues }),
        identityAccessFeature(access),
        {
          start: async () => {
            if (!followedUsers) return;
            userEvents = followUserEvents({
              brokers: config.KAFKA_BROKERS,
              topicPrefix: config.KAFKA_TOPIC_PREFIX,
              logger,
              forget: (userId) => followedUsers.forget(userId),
            });
          },
          stop: async () => {
            await userEvents?.stop();
            users.close();
            directory.close();
          },
          // Reported, not a readiness condition: without the feed every list asks identity for its users.
          readinessChecks: { userEvents: async () => (userEvents?.isLive() ? 'live' : followedUsers ? 'lagging' : 'not followed') },
        },
      ];
    },
  };
}

if (import.meta.main) await runService(reviewService(readConfig()));
