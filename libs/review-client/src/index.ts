export { reviewEvents, REVIEW_TOPIC } from './review-events.ts';
export { FakeBranchUpdates, GrpcBranchUpdates } from './branch-updates.ts';
export type { BranchUpdates } from './branch-updates.ts';
export { GrpcDeployedMergeRequests } from './deployed-merge-requests.ts';
export type { DeployedMergeRequests, DeployedMergeRequestsPage } from './deployed-merge-requests.ts';
export { FakeProjectCommits, GrpcProjectCommits } from './project-commits.ts';
export type { CommitDetails, ProjectCommits } from './project-commits.ts';
export { FixedReviewRepositories, GrpcReviewRepositories } from './repositories.ts';
export type { RepositoryCreation, RepositoryStorageNames } from './repositories.ts';
