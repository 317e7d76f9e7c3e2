import type { Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { issueVisibleTo, planningProject } from '../core/issue-access.ts';
import type { Issue } from '../issues/issue.entity.ts';
import { readableMergeRequest } from '../merge-requests/merge-request-lookup.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { placePosition, type DiffRefs, type PositionInput } from './diff-position.ts';
import { commitNoteable, issueNoteable, mergeRequestNoteable, type Noteable } from './noteable.ts';
import type { NewNoteKind } from './notes-service.ts';

/** The issues of a project, as notes find them. */
export interface IssueLookup {
  get(projectId: number, iid: number): Promise<Issue>;
}

export interface NoteableDeps {
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  issues: IssueLookup;
  repositories: RepositoriesService;
}

/** What notes are on, as the API's paths name them. */
export type NoteablePath = 'merge_requests' | 'issues' | 'commits';

/** What a note is on, once the caller may read it, and how a diff note is placed on it (merge requests and commits). */
export interface FoundNoteable {
  project: ProjectAccess;
  noteable: Noteable;
  diffNote?: (position: PositionInput) => Promise<NewNoteKind>;
  /** A commit's diff refs: its first parent against it (none for a root commit). */
  diffRefs?: DiffRefs;
}

/**
 * The merge request, issue or commit behind a path when the caller may read it: 404 when the
 * project, the thing or (for a confidential issue) the caller's view of it is missing, 403 when
 * the caller may not read that part of the project.
 */
export async function findNoteable(
  deps: NoteableDeps,
  options: { caller: Caller; path: NoteablePath; id: string | number; noteable: string | number },
): Promise<FoundNoteable> {
  const { caller } = options;
  if (options.path === 'merge_requests') {
    const { project, mergeRequest } = await readableMergeRequest(deps, caller, {
      id: options.id,
      merge_request_iid: Number(options.noteable),
    });
    const diffNote = async (position: PositionInput): Promise<NewNoteKind> => {
      const version = (await deps.mergeRequests.versions(mergeRequest)).find(
        (candidate) =>
          candidate.baseCommitSha === position.base_sha &&
          candidate.startCommitSha === position.start_sha &&
          candidate.headCommitSha === position.head_sha,
      );
      const repository = await deps.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId });
      const files = version ? await repository.git.diff(version.baseCommitSha, version.headCommitSha) : [];
      const refs = version && { baseSha: version.baseCommitSha, startSha: version.startCommitSha, headSha: version.headCommitSha };
      return { type: 'DiffNote', position: placePosition(position, refs, files), versionId: version?.id ?? null, commitId: null };
    };
    return { project, noteable: mergeRequestNoteable(mergeRequest), diffNote };
  }
  if (options.path === 'issues') {
    const project = await planningProject({ access: deps.access, caller, idOrPath: options.id });
    const issue = await deps.issues.get(project.id, Number(options.noteable));
    if (!issueVisibleTo(project, caller, issue)) throw new NotFoundError('Issue');
    return { project, noteable: issueNoteable(issue) };
  }
  const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: options.id, need: 'read' });
  const sha = await repository.git.resolveCommit(String(options.noteable));
  if (!sha) throw new NotFoundError('Commit');
  const commit = await repository.git.commit(sha);
  const parent = commit.parentIds[0];
  const diffRefs = parent === undefined ? undefined : { baseSha: parent, startSha: parent, headSha: sha };
  const diffNote = async (position: PositionInput): Promise<NewNoteKind> => {
    const matches =
      diffRefs && position.base_sha === diffRefs.baseSha && position.start_sha === diffRefs.startSha && position.head_sha === sha;
    const files = matches ? await repository.git.commitDiff(commit) : [];
    return { type: 'DiffNote', position: placePosition(position, matches ? diffRefs : undefined, files), versionId: null, commitId: null };
  };
  const noteable = commitNoteable(project.id, { id: sha, title: commit.message.split('\n')[0] ?? '' });
  return { project, noteable, diffNote, ...(diffRefs ? { diffRefs } : {}) };
}
