import { Readable } from 'node:stream';
import type { AuthenticatedCaller } from '@platform/auth';
import { RefusedError } from '@platform/errors';
import type { AccessedRepository } from '../repositories/project-repositories.ts';
import { cleanSignature, signatureOf } from '../repositories/commit-signature.ts';
import { isValidBranchName, ZERO_SHA, type GitCommit, type GitRepository } from '../repositories/git-repository.ts';
import { StagedTree } from '../repositories/staged-tree.ts';
import type { RefUpdates } from './ref-updates.ts';

const REGULAR_MODE = '100644';
const EXECUTABLE_MODE = '100755';
const BRANCH_PREFIX = 'refs/heads/';

/** One change of a commit, as GitLab's commit actions name them; `content` is already decoded. */
export type CommitAction =
  | { action: 'create'; filePath: string; content: Buffer; executeFilemode?: boolean | undefined }
  | { action: 'update'; filePath: string; content: Buffer; executeFilemode?: boolean | undefined; lastCommitId?: string | undefined }
  | { action: 'delete'; filePath: string; lastCommitId?: string | undefined }
  | { action: 'move'; filePath: string; previousPath: string; content?: Buffer | undefined; lastCommitId?: string | undefined }
  | { action: 'chmod'; filePath: string; executeFilemode: boolean };

/** A commit the API writes: onto `branch`, from `startBranch` or `startSha` (the branch itself by default). */
export interface CommitRequest {
  branch: string;
  startBranch?: string | undefined;
  startSha?: string | undefined;
  /** The repository `startBranch` or `startSha` is read in when it is another project's (an upstream of this fork). */
  startRepository?: GitRepository | undefined;
  /** Overwrite `branch` with the new commit when it exists and the commit starts elsewhere. */
  force: boolean;
  message: string;
  /** The commit's author's name and email where the caller gives them; the caller's otherwise (the caller is always its committer). */
  authorName?: string | undefined;
  authorEmail?: string | undefined;
  actions: CommitAction[];
  /** How a stale `lastCommitId` is refused; GitLab's commit actions name the file. */
  staleFileMessage?: (filePath: string) => string;
}

/** GitLab's refusals of commit actions (Gitaly's wording) and of where a commit starts (`Commits::CreateService`). */
export const COMMIT_REFUSALS = {
  fileExists: 'A file with this name already exists',
  fileMissing: "A file with this name doesn't exist",
  directoryExists: 'A directory with this name already exists',
  notOnBranch: 'You can only create or edit files when you are on a branch',
  bothStarts: "You can't pass both start_branch and start_sha",
  invalidStartSha: (sha: string) => `Invalid start_sha '${sha}'`,
  missingStartSha: (sha: string) => `Cannot find start_sha '${sha}'`,
  branchExists: (branch: string) => `A branch called '${branch}' already exists. Switch to that branch in order to make changes`,
  invalidBranch: (branch: string) => `Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`,
  staleFile: (filePath: string) => `The file has changed since you started editing it: ${filePath}`,
};

const SHA = /^[0-9a-f]{40}$/;

/**
 * Writes commits for the API without a work tree: the start commit's tree is read into a
 * temporary index, the actions edit it (blobs streamed into git), and the tree is committed with
 * the caller as committer; the branch then moves through RefUpdates, as a push would move it.
 */
export class CommitWriter {
  readonly #refUpdates: RefUpdates;

  constructor(options: { refUpdates: RefUpdates }) {
    this.#refUpdates = options.refUpdates;
  }

  async commit(options: { accessed: AccessedRepository; caller: AuthenticatedCaller; request: CommitRequest }): Promise<GitCommit> {
    const { accessed, caller, request } = options;
    const { git } = accessed.repository;
    await this.#refUpdates.requirePush({ accessed, caller, branch: request.branch });
    const { parent, current } = await this.#start(git, request);
    const tree = await this.#tree(git, parent, request);
    const committer = signatureOf(caller, accessed.project);
    const author = cleanSignature({ name: request.authorName ?? committer.name, email: request.authorEmail ?? committer.email });
    const commit = await git.commitTree({ tree, parents: parent ? [parent] : [], message: request.message, author, committer });
    await this.#refUpdates.apply({
      accessed,
      caller,
      updates: [{ ref: `${BRANCH_PREFIX}${request.branch}`, before: current, after: commit }],
    });
    return git.commit(commit);
  }

  /** The commit to start from (null in an empty repository) and the branch's current head (zeros when it does not exist). */
  async #start(git: GitRepository, request: CommitRequest): Promise<{ parent: string | null; current: string }> {
    const startGit = request.startRepository ?? git;
    const isEmpty = async (repository: GitRepository) =>
      ![...(await repository.refs()).keys()].some((ref) => ref.startsWith(BRANCH_PREFIX));
    const current = (await git.resolveCommit(`${BRANCH_PREFIX}${request.branch}`)) ?? ZERO_SHA;
    const startBranch = request.startSha ? request.startBranch : (request.startBranch ?? request.branch);
    let parent: string | null = null;
    if (request.startSha) {
      if (request.startBranch) throw new RefusedError(COMMIT_REFUSALS.bothStarts);
      if (!SHA.test(request.startSha)) throw new RefusedError(COMMIT_REFUSALS.invalidStartSha(request.startSha));
      parent = await startGit.resolveCommit(request.startSha);
      if (!parent) throw new RefusedError(COMMIT_REFUSALS.missingStartSha(request.startSha));
    } else if (startBranch && !(await isEmpty(startGit))) {
      parent = await startGit.resolveCommit(`${BRANCH_PREFIX}${startBranch}`);
      if (!parent) throw new RefusedError(COMMIT_REFUSALS.notOnBranch);
    }
    const differentBranch = startBranch !== request.branch || request.startSha !== undefined || startGit !== git;
    if (!(await isEmpty(git)) && differentBranch && current !== ZERO_SHA && !request.force)
      throw new RefusedError(COMMIT_REFUSALS.branchExists(request.branch));
    if (differentBranch && !(await isValidBranchName(request.branch)))
      throw new RefusedError(COMMIT_REFUSALS.invalidBranch(request.branch));
    // A commit of the upstream is brought into this repository first, as Gitaly does for start_project.
    if (parent && startGit !== git && !(await git.resolveCommit(parent)))
      await git.fetchCommit({ source: startGit, sha: parent, into: `refs/keep-around/${parent}` });
    return { parent, current };
  }

  async #tree(git: GitRepository, parent: string | null, request: CommitRequest): Promise<string> {
    const staged = await StagedTree.open(git, parent);
    try {
      for (const action of request.actions) {
        if (parent && 'lastCommitId' in action && action.lastCommitId) {
          const path = action.action === 'move' ? action.previousPath : action.filePath;
          if ((await git.lastCommitIdFor(parent, path)) !== action.lastCommitId)
            throw new RefusedError((request.staleFileMessage ?? COMMIT_REFUSALS.staleFile)(path));
        }
        await applyAction(git, staged, action);
      }
      return await staged.writeTree();
    } finally {
      await staged.close();
    }
  }
}

const modeOf = (executable: boolean) => (executable ? EXECUTABLE_MODE : REGULAR_MODE);
const writeBlob = (git: GitRepository, content: Buffer) => git.writeBlob(Readable.from([content]));

/** A file may be created at `filePath`: nothing is there, and no leading part of it is a file. */
async function requireFree(staged: StagedTree, filePath: string): Promise<void> {
  if (await staged.fileAt(filePath)) throw new RefusedError(COMMIT_REFUSALS.fileExists);
  if (await staged.isDirectory(filePath)) throw new RefusedError(COMMIT_REFUSALS.directoryExists);
  const segments = filePath.split('/');
  for (let count = 1; count < segments.length; count += 1) {
    if (await staged.fileAt(segments.slice(0, count).join('/'))) throw new RefusedError(COMMIT_REFUSALS.fileExists);
  }
}

async function requireFile(staged: StagedTree, filePath: string) {
  const entry = await staged.fileAt(filePath);
  if (!entry) throw new RefusedError(COMMIT_REFUSALS.fileMissing);
  return entry;
}

async function applyAction(git: GitRepository, staged: StagedTree, action: CommitAction): Promise<void> {
  const path = action.filePath;
  switch (action.action) {
    case 'create': {
      await requireFree(staged, path);
      await staged.put({ path, mode: modeOf(action.executeFilemode ?? false), id: await writeBlob(git, action.content) });
      return;
    }
    case 'update': {
      const entry = await requireFile(staged, path);
      const mode = action.executeFilemode === undefined ? entry.mode : modeOf(action.executeFilemode);
      await staged.put({ path, mode, id: await writeBlob(git, action.content) });
      return;
    }
    case 'delete': {
      await requireFile(staged, path);
      await staged.remove(path);
      return;
    }
    case 'move': {
      const entry = await requireFile(staged, action.previousPath);
      await staged.remove(action.previousPath);
      await requireFree(staged, path);
      await staged.put({ path, mode: entry.mode, id: action.content ? await writeBlob(git, action.content) : entry.id });
      return;
    }
    case 'chmod': {
      const entry = await requireFile(staged, path);
      await staged.put({ path, mode: modeOf(action.executeFilemode), id: entry.id });
      return;
    }
  }
}
