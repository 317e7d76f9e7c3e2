import type { DiffStats, GitCommit } from '../repositories/git-repository.ts';

/** GitLab's commit (`commit/basic.json`): what branches, pushes and merge requests show of a commit. */
export function commitView(commit: GitCommit, project: { webUrl: string }) {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: commit.committedDate,
    parent_ids: commit.parentIds,
    title: commit.message.split('\n')[0] ?? '',
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: commit.authoredDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: commit.committedDate,
    trailers: {},
    extended_trailers: {},
    web_url: `${project.webUrl}/-/commit/${commit.id}`,
  };
}

/** `GET /projects/:id/repository/commits/:sha` (`commit/detail.json`). No pipelines run here: `status` and `last_pipeline` are null. */
export function commitDetailView(commit: GitCommit, stats: DiffStats, project: { id: number; webUrl: string }) {
  return {
    ...commitView(commit, project),
    stats: { additions: stats.additions, deletions: stats.deletions, total: stats.additions + stats.deletions },
    status: null,
    last_pipeline: null,
    project_id: project.id,
  };
}
