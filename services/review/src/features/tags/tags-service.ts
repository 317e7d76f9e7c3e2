import type { AuthenticatedCaller } from '@platform/auth';
import { NotFoundError, RefusedError } from '@platform/errors';
import { signatureOf } from '../repositories/commit-signature.ts';
import { isValidBranchName, ZERO_SHA, type GitCommit, type GitRepository, type GitTag } from '../repositories/git-repository.ts';
import type { AccessedRepository } from '../repositories/project-repositories.ts';
import type { RefUpdates } from '../repository-writes/ref-updates.ts';
import { matchesSearch } from '../branches/branch-search.ts';

export type TagOrder = 'name' | 'updated' | 'version';

/** A tag with the commit it names. */
export interface TagDetails {
  tag: GitTag;
  commit: GitCommit;
}

/** GitLab's refusals of a tag (`Tags::CreateService`, `Tags::DestroyService`). */
export const TAG_REFUSALS = {
  invalidName: 'Tag name invalid',
  exists: (name: string) => `Tag ${name} already exists`,
  invalidTarget: (ref: string) => `Target ${ref} is invalid`,
};

const TAG_PREFIX = 'refs/tags/';

/** Version order: numbers by value (`v1.10` after `v1.9`), the rest by text. */
const byVersion = new Intl.Collator('en', { numeric: true }).compare;

export function sortTags(tags: TagDetails[], order: TagOrder, direction: 'asc' | 'desc'): TagDetails[] {
  const compare = (a: TagDetails, b: TagDetails) => {
    if (order === 'updated')
      return Date.parse(a.commit.committedDate) - Date.parse(b.commit.committedDate) || byVersion(a.tag.name, b.tag.name);
    if (order === 'version') return byVersion(a.tag.name, b.tag.name);
    return a.tag.name < b.tag.name ? -1 : a.tag.name > b.tag.name ? 1 : 0;
  };
  const sorted = [...tags].sort(compare);
  return direction === 'desc' ? sorted.reverse() : sorted;
}

/** A repository's tags: listed, read, created (lightweight, or annotated with a message) and deleted as pushes are. */
export class TagsService {
  readonly #refUpdates: RefUpdates;

  constructor(options: { refUpdates: RefUpdates }) {
    this.#refUpdates = options.refUpdates;
  }

  async list(git: GitRepository, options: { search?: string | undefined; order: TagOrder; sort: 'asc' | 'desc' }): Promise<TagDetails[]> {
    const tags = (await git.tags()).filter((tag) => matchesSearch(tag.name, options.search));
    return sortTags(await this.#withCommits(git, tags), options.order, options.sort);
  }

  async get(git: GitRepository, name: string): Promise<TagDetails> {
    const tag = (await git.tags()).find((candidate) => candidate.name === name);
    if (!tag) throw new NotFoundError('Tag');
    const [details] = await this.#withCommits(git, [tag]);
    if (!details) throw new NotFoundError('Tag');
    return details;
  }

  async create(options: {
    accessed: AccessedRepository;
    caller: AuthenticatedCaller;
    name: string;
    ref: string;
    message?: string | undefined;
  }): Promise<TagDetails> {
    const { accessed, caller, name } = options;
    const { git } = accessed.repository;
    // A tag name is valid where a branch name would be.
    if (!(await isValidBranchName(name))) throw new RefusedError(TAG_REFUSALS.invalidName);
    if (await git.resolveCommit(`${TAG_PREFIX}${name}`)) throw new RefusedError(TAG_REFUSALS.exists(name));
    const commit = await git.resolveCommit(options.ref);
    if (!commit) throw new RefusedError(TAG_REFUSALS.invalidTarget(options.ref));
    const message = options.message?.trim();
    const target = message ? await git.writeTag({ name, commit, message, tagger: signatureOf(caller, accessed.project) }) : commit;
    await this.#refUpdates.apply({ accessed, caller, updates: [{ ref: `${TAG_PREFIX}${name}`, before: ZERO_SHA, after: target }] });
    return this.get(git, name);
  }

  async delete(options: { accessed: AccessedRepository; caller: AuthenticatedCaller; name: string }): Promise<void> {
    const tag = (await options.accessed.repository.git.tags()).find((candidate) => candidate.name === options.name);
    if (!tag) throw new NotFoundError('Tag');
    await this.#refUpdates.apply({
      accessed: options.accessed,
      caller: options.caller,
      updates: [{ ref: `${TAG_PREFIX}${tag.name}`, before: tag.target, after: ZERO_SHA }],
    });
  }

  async #withCommits(git: GitRepository, tags: GitTag[]): Promise<TagDetails[]> {
    const commits = new Map((await git.commitsByIds([...new Set(tags.map((tag) => tag.commitId))])).map((commit) => [commit.id, commit]));
    return tags.flatMap((tag) => {
      const commit = commits.get(tag.commitId);
      return commit ? [{ tag, commit }] : [];
    });
  }
}
