import type { GitCommit } from '../repositories/git-repository.ts';

/** What GitLab says about a file at a ref (`blob_data` of the files API), its content aside. */
export interface FileFields {
  file_name: string;
  file_path: string;
  size: number;
  encoding: 'base64';
  content_sha256: string;
  ref: string;
  blob_id: string;
  commit_id: string;
  last_commit_id: string;
  execute_filemode: boolean;
}

/**
 * The same fields as GitLab's `X-Gitlab-*` headers (`file_name` as `X-Gitlab-File-Name`). Values are
 * sent as their UTF-8 bytes, as GitLab sends them (a header holds bytes, Node takes them as latin1).
 */
export function fileHeaders(fields: FileFields): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      `X-Gitlab-${key
        .split('_')
        .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
        .join('-')}`,
      Buffer.from(String(value), 'utf8').toString('latin1'),
    ]),
  );
}

/** A range of `GET .../files/:file_path/blame` (`BlameRange`): the commit, then its lines. */
export function blameRangeView(commit: GitCommit, lines: string[]) {
  return {
    commit: {
      id: commit.id,
      parent_ids: commit.parentIds,
      message: commit.message,
      authored_date: commit.authoredDate,
      author_name: commit.authorName,
      author_email: commit.authorEmail,
      committed_date: commit.committedDate,
      committer_name: commit.committerName,
      committer_email: commit.committerEmail,
    },
    lines,
  };
}
