import type { CommitStatus } from './commit-status.entity.ts';
import type { ListedCommitStatus } from './commit-statuses-read-model.ts';

/** A written commit status as its view reads it. */
export function listedCommitStatus(status: CommitStatus): ListedCommitStatus {
  return {
    id: status.id,
    pipelineId: status.pipelineId,
    sha: status.sha,
    ref: status.ref,
    name: status.name,
    stage: status.stage,
    status: status.status,
    description: status.description,
    targetUrl: status.targetUrl,
    // The driver may answer a double precision as a string.
    coverage: status.coverage === null || status.coverage === undefined ? null : Number(status.coverage),
    allowFailure: status.allowFailure,
    userId: status.userId,
    userUsername: status.userUsername,
    userName: status.userName,
    createdAt: status.createdAt.toISOString(),
    startedAt: status.startedAt?.toISOString() ?? null,
    finishedAt: status.finishedAt?.toISOString() ?? null,
  };
}

/** GitLab's `CommitStatus` entity. */
export function commitStatusView(status: ListedCommitStatus, options: { baseUrl: string }) {
  return {
    id: status.id,
    sha: status.sha,
    ref: status.ref,
    status: status.status,
    name: status.name,
    target_url: status.targetUrl,
    description: status.description,
    created_at: status.createdAt,
    started_at: status.startedAt,
    finished_at: status.finishedAt,
    allow_failure: status.allowFailure,
    coverage: status.coverage,
    pipeline_id: status.pipelineId,
    author: {
      id: status.userId,
      username: status.userUsername,
      name: status.userName,
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${options.baseUrl}/${status.userUsername}`,
    },
  };
}
