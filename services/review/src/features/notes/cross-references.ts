import type { Caller } from '@platform/auth';
import type { ProjectAccess } from '@platform/identity-client';
import { mayReadIssue } from '../core/issue-access.ts';
import { mayReadCode } from '../repositories/repository-access.ts';
import type { Noteable } from './noteable.ts';

/** A merge request or an issue, as cross references find it: what mentions it, or what it mentions. */
export interface Mentionable {
  type: 'MergeRequest' | 'Issue';
  id: number;
  projectId: number;
  iid: number;
  title: string;
  authorId: number;
  assigneeIds: number[];
  /** Merge requests are never confidential. */
  confidential: boolean;
  locked: boolean;
}

/** The merge request or issue that mentioned another, as its cross-reference note names it. */
export interface MentionedIn {
  type: 'MergeRequest' | 'Issue';
  id: number;
}

export function mentionableNoteable(mentionable: Mentionable): Noteable {
  const { type, projectId, id, iid, title, locked, authorId } = mentionable;
  return { type, projectId, id, iid, commitId: null, title, locked, authorId };
}

/** Whether the caller, as identity answered for its project, may read the merge request (its code readers) or the issue. */
export function mayReadMentionable(project: ProjectAccess, caller: Caller, mentionable: Mentionable): boolean {
  return mentionable.type === 'Issue' ? mayReadIssue(project, caller, mentionable) : mayReadCode(project);
}

/**
 * GitLab's cross-reference note on what `mentioner` mentioned: "mentioned in merge request !3",
 * or "issue #5"; from another project, the mentioner's path is given too: its own path in the same
 * namespace, its full path from another (GitLab's `to_reference` from the mentioned's project).
 */
export function crossReferenceBody(options: {
  mentioner: { type: 'MergeRequest' | 'Issue'; iid: number };
  from: ProjectAccess;
  to: ProjectAccess;
}): string {
  const { mentioner, from, to } = options;
  const sameNamespace = from.namespaceIds.at(-1) === to.namespaceIds.at(-1);
  const path = from.id === to.id ? '' : sameNamespace ? (from.pathWithNamespace.split('/').at(-1) ?? '') : from.pathWithNamespace;
  return mentioner.type === 'MergeRequest'
    ? `mentioned in merge request ${path}!${mentioner.iid}`
    : `mentioned in issue ${path}#${mentioner.iid}`;
}
