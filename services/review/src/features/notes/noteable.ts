import type { Issue } from '../issues/issue.entity.ts';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';

/** GitLab's class names of what notes are on. */
export type NoteableType = 'MergeRequest' | 'Issue' | 'Commit';

/** What a note is on: a merge request, an issue (by id) or a commit of a project (by sha). */
export interface Noteable {
  type: NoteableType;
  projectId: number;
  /** The merge request's or issue's id; null for a commit. */
  id: number | null;
  iid: number | null;
  /** The commit's sha; null for merge requests and issues. */
  commitId: string | null;
  /** What activity events show the note on. */
  title: string;
  /** A locked discussion takes notes from members only. */
  locked: boolean;
  /** Who opened it (merge requests: its author may resolve its threads); null for a commit. */
  authorId: number | null;
}

export function mergeRequestNoteable(mergeRequest: MergeRequest): Noteable {
  return {
    type: 'MergeRequest',
    projectId: mergeRequest.projectId,
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    commitId: null,
    title: mergeRequest.title,
    locked: mergeRequest.discussionLocked === true,
    authorId: mergeRequest.authorId,
  };
}

export function issueNoteable(issue: Issue): Noteable {
  return {
    type: 'Issue',
    projectId: issue.projectId,
    id: issue.id,
    iid: issue.iid,
    commitId: null,
    title: issue.title,
    locked: issue.discussionLocked === true,
    authorId: issue.authorId,
  };
}

export function commitNoteable(projectId: number, commit: { id: string; title: string }): Noteable {
  return { type: 'Commit', projectId, id: null, iid: null, commitId: commit.id, title: commit.title, locked: false, authorId: null };
}

/** Threads on merge requests can be resolved (GitLab's `Noteable.resolvable_types`). */
export function takesResolvableThreads(noteable: Noteable): boolean {
  return noteable.type === 'MergeRequest';
}
