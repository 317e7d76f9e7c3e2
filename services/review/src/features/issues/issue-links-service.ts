import { ConflictError, NotFoundError, UnprocessableError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { Issue } from './issue.entity.ts';
import type { IssueLink } from './issue-link.entity.ts';
import type { IssueLinkStore, RelatedIssue } from './issue-links-store.ts';

export type LinkType = 'relates_to' | 'blocks' | 'is_blocked_by';

/** Issue links (GitLab's related issues): the caller's access to both issues is decided before these are called. */
export class IssueLinksService {
  readonly #em: EntityManager;
  readonly #store: IssueLinkStore;

  constructor(options: { em: EntityManager; store: IssueLinkStore }) {
    this.#em = options.em;
    this.#store = options.store;
  }

  related(issue: Issue): Promise<RelatedIssue[]> {
    return this.#store.related(issue.id);
  }

  /** Links `source` to `target`; `is_blocked_by` is kept as the target blocking the source, as GitLab keeps it. */
  async link(source: Issue, target: Issue, linkType: LinkType): Promise<IssueLink> {
    if (source.id === target.id) throw new UnprocessableError(`#${target.iid} cannot be added: cannot be related to itself`);
    return this.#em.transactional(async () => {
      if (await this.#store.between(source.id, target.id)) throw new ConflictError('Issue(s) already assigned');
      const now = new Date();
      const blockedBy = linkType === 'is_blocked_by';
      return this.#store.create({
        sourceIssueId: blockedBy ? target.id : source.id,
        targetIssueId: blockedBy ? source.id : target.id,
        linkType: blockedBy ? 'blocks' : linkType,
        createdAt: now,
        updatedAt: now,
      });
    });
  }

  /** The link of that id with `issue` at either end: 404 Not found otherwise. */
  async get(issue: Issue, linkId: number): Promise<IssueLink> {
    const found = await this.#store.find(issue.id, linkId);
    if (!found) throw new NotFoundError();
    return found;
  }

  async unlink(link: IssueLink): Promise<void> {
    await this.#em.transactional(() => this.#store.delete(link));
  }
}
