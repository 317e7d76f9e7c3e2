import { readModelDatabase, type EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { BranchUpdates, ProjectCommits } from '@platform/review-client';
import type { Feature } from '@platform/service';
import { CommitStatus } from './commit-status.entity.ts';
import { CommitStatusesReadModel } from './commit-statuses-read-model.ts';
import { commitStatusesRoutes } from './commit-statuses-routes.ts';
import { CommitStatusesService } from './commit-statuses-service.ts';
import { PgCommitStatusStore } from './commit-statuses-store.ts';

export const commitStatusesEntities = [CommitStatus];

/** Commit statuses posted by external CI systems, which make and move external pipelines. */
export function createCommitStatusesFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  commits: ProjectCommits;
  branches: BranchUpdates;
}): Feature {
  const statuses = new CommitStatusesService({
    em: deps.em,
    store: new PgCommitStatusStore(deps.em),
    readModel: new CommitStatusesReadModel(readModelDatabase(deps.em)),
    commits: deps.commits,
    branches: deps.branches,
  });
  return { routes: [createRouter(commitStatusesRoutes, { access: deps.access, statuses })] };
}
