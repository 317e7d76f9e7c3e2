import type { AuthenticatedCaller } from '@platform/auth';
import { NotFoundError, RefusedError } from '@platform/errors';
import { isValidBranchName, ZERO_SHA, type GitBranch } from '../repositories/git-repository.ts';
import { INITIAL_BRANCH, type ProjectRepository } from '../repositories/repositories-service.ts';
import type { AccessedRepository } from '../repositories/project-repositories.ts';
import { protectionsOf, type BranchProtection } from '../protected-branches/branch-protection.ts';
import type { RepositoryWrites } from '../repository-writes/repository-writes-feature.ts';
import { matchesSearch, sortBranches, type BranchSort } from './branch-search.ts';

/** A branch with what its view needs to know about the repository. */
export interface BranchDetails {
  branch: GitBranch;
  isDefault: boolean;
  /** Its head is in the default branch's history, and not the default branch's head itself. */
  merged: boolean;
}

/** GitLab's refusals of a new branch (`Branches::CreateService`, `Branches::ValidateNewService`). */
export const BRANCH_REFUSALS = {
  invalidName: 'Branch name is invalid',
  exists: 'Branch already exists',
  invalidRef: (branch: string, ref: string) => `Failed to create branch '${branch}': invalid reference name '${ref}'`,
};

const BRANCH_PREFIX = 'refs/heads/';

export class BranchesService {
  readonly #writes: RepositoryWrites;

  constructor(options: { writes: RepositoryWrites }) {
    this.#writes = options.writes;
  }

  /** The matching branches, sorted; details are read for the page asked for only. */
  async list(
    repository: ProjectRepository,
    options: { search?: string | undefined; sort: BranchSort; offset: number; limit: number },
  ): Promise<{ items: BranchDetails[]; total: number }> {
    const branches = sortBranches(
      (await repository.git.branches()).filter((branch) => matchesSearch(branch.name, options.search)),
      options.sort,
    );
    const page = branches.slice(options.offset, options.offset + options.limit);
    return { items: await this.#details(repository, page), total: branches.length };
  }

  async get(repository: ProjectRepository, name: string): Promise<BranchDetails> {
    const branch = (await repository.git.branches()).find((candidate) => candidate.name === name);
    if (!branch) throw new NotFoundError('Branch');
    const [details] = await this.#details(repository, [branch]);
    if (!details) throw new NotFoundError('Branch');
    return details;
  }

  /**
   * Creates `branch` at the commit `ref` names, as a push would (recorded as one). In an empty
   * repository GitLab first writes the default branch with an empty README.md, so that `ref` may
   * name it.
   */
  async create(options: {
    accessed: AccessedRepository;
    branch: string;
    ref: string;
    caller: AuthenticatedCaller;
  }): Promise<BranchDetails> {
    const { accessed, branch, caller } = options;
    const { git } = accessed.repository;
    if ((await git.branches()).length === 0) {
      await this.#writes.commits.commit({
        accessed,
        caller,
        request: {
          branch: accessed.project.defaultBranch || INITIAL_BRANCH,
          force: false,
          message: 'Add README.md',
          actions: [{ action: 'create', filePath: 'README.md', content: Buffer.alloc(0) }],
        },
      });
    }
    if (!(await isValidBranchName(branch))) throw new RefusedError(BRANCH_REFUSALS.invalidName);
    if (await git.resolveCommit(`${BRANCH_PREFIX}${branch}`)) throw new RefusedError(BRANCH_REFUSALS.exists);
    const sha = await git.resolveCommit(options.ref);
    if (!sha) throw new RefusedError(BRANCH_REFUSALS.invalidRef(branch, options.ref));
    await this.#writes.refUpdates.apply({
      accessed,
      caller,
      updates: [{ ref: `${BRANCH_PREFIX}${branch}`, before: ZERO_SHA, after: sha }],
    });
    return this.get(accessed.repository, branch);
  }

  /** Deletes `branch` as a push would; the default branch and, but for maintainers, protected branches stay. */
  async delete(options: { accessed: AccessedRepository; branch: string; caller: AuthenticatedCaller }): Promise<void> {
    const ref = `${BRANCH_PREFIX}${options.branch}`;
    const head = await options.accessed.repository.git.resolveCommit(ref);
    if (!head) throw new NotFoundError('Branch');
    await this.#writes.refUpdates.apply({
      accessed: options.accessed,
      caller: options.caller,
      updates: [{ ref, before: head, after: ZERO_SHA }],
    });
  }

  /**
   * Deletes every branch merged into the default branch (its head in the default branch's
   * history, and not the default branch's head), but protected ones, as GitLab's
   * `DeleteMergedBranchesService` does; as one push.
   */
  async deleteMerged(options: {
    accessed: AccessedRepository;
    caller: AuthenticatedCaller;
    protections: BranchProtection[];
  }): Promise<void> {
    const { repository } = options.accessed;
    const branches = (await this.#details(repository, await repository.git.branches())).filter(
      (details) => details.merged && !details.isDefault && protectionsOf(details.branch.name, options.protections).length === 0,
    );
    if (branches.length === 0) return;
    await this.#writes.refUpdates.apply({
      accessed: options.accessed,
      caller: options.caller,
      updates: branches.map((details) => ({
        ref: `${BRANCH_PREFIX}${details.branch.name}`,
        before: details.branch.commit.id,
        after: ZERO_SHA,
      })),
    });
  }

  async #details(repository: ProjectRepository, branches: GitBranch[]): Promise<BranchDetails[]> {
    const defaultName = await repository.git.headBranch();
    const defaultSha = await repository.git.resolveCommit(`refs/heads/${defaultName}`);
    return Promise.all(
      branches.map(async (branch) => ({
        branch,
        isDefault: branch.name === defaultName,
        merged: defaultSha !== null && branch.commit.id !== defaultSha && (await repository.git.isAncestor(branch.commit.id, defaultSha)),
      })),
    );
  }
}
