import type { AuthenticatedCaller } from '@platform/auth';
import { NotFoundError, RefusedError } from '@platform/errors';
import { signatureOf } from '../repositories/commit-signature.ts';
import { EMPTY_TREE, type GitCommit } from '../repositories/git-repository.ts';
import type { AccessedRepository } from '../repositories/project-repositories.ts';
import type { RefUpdates } from './ref-updates.ts';

export type PickKind = 'cherry_pick' | 'revert';

/** Why a pick was refused: GitLab's `error_code`s, `conflict` (the change does not apply) or `empty` (it changes nothing). */
export type PickErrorCode = 'conflict' | 'empty';

/** A cherry-pick or revert GitLab refuses: 400 with the message, the `error_code` and, for a dry run, `dry_run: "error"`. */
export class PickRefusedError extends RefusedError {
  override name = 'PickRefusedError';
  readonly errorCode: PickErrorCode;
  constructor(kind: PickKind, errorCode: PickErrorCode) {
    super(
      kind === 'revert'
        ? 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.'
        : 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
    );
    this.errorCode = errorCode;
  }
}

/** The message GitLab gives a pick when the caller gives none. */
function defaultMessage(kind: PickKind, commit: GitCommit): string {
  const title = commit.message.split('\n')[0] ?? '';
  if (kind === 'revert') return `Revert "${title}"\n\nThis reverts commit ${commit.id}`;
  return `${commit.message.replace(/\n+$/, '')}\n\n(cherry picked from commit ${commit.id})`;
}

/**
 * Cherry-picks a commit onto a branch, or reverts it there, as GitLab's `Commits::CherryPickService`
 * and `Commits::RevertService` do: the change is computed without a work tree, the new commit
 * (a cherry-pick keeps the original author; the caller commits) moves the branch through
 * RefUpdates. A dry run only tells whether it would apply.
 */
export class ChangePicker {
  readonly #refUpdates: RefUpdates;

  constructor(options: { refUpdates: RefUpdates }) {
    this.#refUpdates = options.refUpdates;
  }

  /** The new commit, or null after a dry run that would have applied. */
  async pick(options: {
    accessed: AccessedRepository;
    caller: AuthenticatedCaller;
    kind: PickKind;
    commit: GitCommit;
    branch: string;
    dryRun: boolean;
    message?: string | undefined;
  }): Promise<GitCommit | null> {
    const { accessed, caller, kind, commit } = options;
    const { git } = accessed.repository;
    const ref = `refs/heads/${options.branch}`;
    const head = await git.resolveCommit(ref);
    if (!head) throw new NotFoundError('Branch');
    await this.#refUpdates.requirePush({ accessed, caller, branch: options.branch });
    const parent = commit.parentIds[0] ?? EMPTY_TREE;
    const change = kind === 'revert' ? { base: commit.id, theirs: parent } : { base: parent, theirs: commit.id };
    const merged = await git.applyChange({ ...change, ours: head });
    if (!merged.clean) throw new PickRefusedError(kind, 'conflict');
    if (merged.tree === (await git.treeOf(head))) throw new PickRefusedError(kind, 'empty');
    if (options.dryRun) return null;
    const committer = signatureOf(caller, accessed.project);
    const author = kind === 'cherry_pick' ? { name: commit.authorName, email: commit.authorEmail } : committer;
    const picked = await git.commitTree({
      tree: merged.tree,
      parents: [head],
      message: options.message ?? defaultMessage(kind, commit),
      author,
      committer,
    });
    await this.#refUpdates.apply({ accessed, caller, updates: [{ ref, before: head, after: picked }] });
    return git.commit(picked);
  }
}
