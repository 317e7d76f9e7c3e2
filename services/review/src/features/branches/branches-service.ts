import type { AuthenticatedCaller } from '@platform/auth';
import { ForbiddenError, NotFoundError, RefusedError } from '@platform/errors';
import { isValidBranchName, type GitBranch } from '../repositories/git-repository.ts';
import { READ_ONLY_MESSAGE, type ProjectRepository, type RepositoriesService } from '../repositories/repositories-service.ts';
import { matchesSearch, sortBranches, type BranchSort } from './branch-search.ts';

/** A branch with what its view needs to know about the repository. */
export interface BranchDetails {
  branch: GitBranch;
  isDefault: boolean;
  /** Its head is in the default branch's history, and not the default branch's head itself. */
  merged: boolean;
}

export class BranchesService {
  readonly #repositories: RepositoriesService;

  constructor(options: { repositories: RepositoriesService }) {
    this.#repositories = options.repositories;
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

  /** Creates `branch` at the commit `ref` names; a `review.repository.pushed` event records it. */
  async create(
    repository: ProjectRepository,
    options: { branch: string; ref: string; caller: AuthenticatedCaller },
  ): Promise<BranchDetails> {
    if (repository.readOnly) throw new ForbiddenError(READ_ONLY_MESSAGE);
    if (!(await isValidBranchName(options.branch))) throw new RefusedError('Branch name is invalid');
    const sha = await repository.git.resolveCommit(options.ref);
    if (!sha) throw new RefusedError(`Invalid reference name: ${options.ref}`);
    const created = await this.#repositories.changeRefs(repository, options.caller, () => repository.git.createBranch(options.branch, sha));
    if (!created) throw new RefusedError('Branch already exists');
    return this.get(repository, options.branch);
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
