import type { AuthenticatedCaller } from '@platform/auth';
import { ForbiddenError, NotFoundError, RefusedError } from '@platform/errors';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { signatureOf } from '../repositories/commit-signature.ts';
import { isValidBranchName, ZERO_SHA, type GitCommit, type GitRepository, type GitTag } from '../repositories/git-repository.ts';
import type { AccessedRepository } from '../repositories/project-repositories.ts';
import type { RefUpdates } from '../repository-writes/ref-updates.ts';
import { matchesSearch } from '../branches/branch-search.ts';
import { isProtectedTag } from '../protected-branches/branch-protection.ts';
import type { TagProtections } from '../protected-branches/protected-branches-service.ts';

export type TagOrder = 'name' | 'updated' | 'version';

/** A tag with the commit it names, and whether a protected tag names it. */
export interface TagDetails {
  tag: GitTag;
  commit: GitCommit;
  isProtected: boolean;
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
  readonly #protections: TagProtections;

  constructor(options: { refUpdates: RefUpdates; protections: TagProtections }) {
    this.#refUpdates = options.refUpdates;
    this.#protections = options.protections;
  }

  async list(
    repository: { projectId: number; git: GitRepository },
    options: { search?: string | undefined; order: TagOrder; sort: 'asc' | 'desc' },
  ): Promise<TagDetails[]> {
    const tags = (await repository.git.tags()).filter((tag) => matchesSearch(tag.name, options.search));
    return sortTags(await this.#withCommits(repository, tags), options.order, options.sort);
  }

  async get(repository: { projectId: number; git: GitRepository }, name: string): Promise<TagDetails> {
    const tag = (await repository.git.tags()).find((candidate) => candidate.name === name);
    if (!tag) throw new NotFoundError('Tag');
    const [details] = await this.#withCommits(repository, [tag]);
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
    return this.get({ projectId: accessed.project.id, git }, name);
  }

  /** GitLab's `delete_tag`: a protected tag is a maintainer's to delete (403 otherwise); then the push rules judge it. */
  async delete(options: { accessed: AccessedRepository; caller: AuthenticatedCaller; name: string }): Promise<void> {
    const { project } = options.accessed;
    const tag = (await options.accessed.repository.git.tags()).find((candidate) => candidate.name === options.name);
    if (!tag) throw new NotFoundError('Tag');
    const maintainer = project.isAdmin || project.accessLevel >= ACCESS_LEVEL.MAINTAINER;
    if (!maintainer && isProtectedTag(tag.name, await this.#protections.list(project.id))) throw new ForbiddenError();
    await this.#refUpdates.apply({
      accessed: options.accessed,
      caller: options.caller,
      updates: [{ ref: `${TAG_PREFIX}${tag.name}`, before: tag.target, after: ZERO_SHA }],
    });
  }

  async #withCommits(repository: { projectId: number; git: GitRepository }, tags: GitTag[]): Promise<TagDetails[]> {
    const { git } = repository;
    const commits = new Map((await git.commitsByIds([...new Set(tags.map((tag) => tag.commitId))])).map((commit) => [commit.id, commit]));
    const protections = tags.length === 0 ? [] : await this.#protections.list(repository.projectId);
    return tags.flatMap((tag) => {
      const commit = commits.get(tag.commitId);
      return commit ? [{ tag, commit, isProtected: isProtectedTag(tag.name, protections) }] : [];
    });
  }
}
