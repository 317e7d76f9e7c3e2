import type { DiffStats, FileDiff, GitCommit } from '../repositories/git-repository.ts';

/** A commit's trailers in GitLab's two shapes: the last value of each key, and every value of each key. */
function trailerViews(trailers: Array<[string, string]>) {
  const extended: Record<string, string[]> = {};
  for (const [key, value] of trailers) (extended[key] ??= []).push(value);
  return { trailers: Object.fromEntries(trailers), extended_trailers: extended };
}

/**
 * GitLab's commit (`commit/basic.json`): what branches, pushes and merge requests show of a commit.
 * `trailers` are shown when the caller asked for them (the commit list's `trailers`), else none.
 */
export function commitView(commit: GitCommit, project: { webUrl: string }, trailers: Array<[string, string]> = []) {
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
    ...trailerViews(trailers),
    web_url: `${project.webUrl}/-/commit/${commit.id}`,
  };
}

export const statsView = (stats: DiffStats) => ({
  additions: stats.additions,
  deletions: stats.deletions,
  total: stats.additions + stats.deletions,
});

/**
 * `GET /projects/:id/repository/commits/:sha` (`commit/detail.json`), `stats` only when asked for.
 * No pipelines run here: `status` and `last_pipeline` are null.
 */
export function commitDetailView(commit: GitCommit, stats: DiffStats | null, project: { id: number; webUrl: string }) {
  return {
    ...commitView(commit, project),
    ...(stats ? { stats: statsView(stats) } : {}),
    status: null,
    last_pipeline: null,
    project_id: project.id,
  };
}

/** One file of a diff (`Entities::Diff`); a file past `diff_max_patch_bytes` comes without its text, `too_large`. */
export function diffView(diff: FileDiff) {
  return {
    diff: diff.diff,
    collapsed: diff.tooLarge,
    too_large: diff.tooLarge,
    new_path: diff.newPath,
    old_path: diff.oldPath,
    a_mode: diff.aMode,
    b_mode: diff.bMode,
    new_file: diff.newFile,
    renamed_file: diff.renamedFile,
    deleted_file: diff.deletedFile,
    generated_file: false,
  };
}
