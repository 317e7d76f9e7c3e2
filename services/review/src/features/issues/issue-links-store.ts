import type { EntityManager } from '@platform/db';
import { Issue } from './issue.entity.ts';
import { IssueLink } from './issue-link.entity.ts';

export type NewIssueLink = Omit<IssueLink, 'id'>;

/** An issue related to another one, as the other one sees the link. */
export interface RelatedIssue {
  issue: Issue;
  link: IssueLink;
  /** relates_to, blocks or is_blocked_by, from the other issue's side. */
  linkType: string;
}

export interface IssueLinkStore {
  /** The issues linked to `issueId` either way, oldest link first. */
  related(issueId: number): Promise<RelatedIssue[]>;
  /** The link between the two issues, either way. */
  between(issueId: number, otherIssueId: number): Promise<IssueLink | null>;
  /** The link of that id whose source or target is `issueId`. */
  find(issueId: number, linkId: number): Promise<IssueLink | null>;
  create(link: NewIssueLink): Promise<IssueLink>;
  delete(link: IssueLink): Promise<void>;
}

export class PgIssueLinkStore implements IssueLinkStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async related(issueId: number): Promise<RelatedIssue[]> {
    const links = await this.#em.find(
      IssueLink,
      { $or: [{ sourceIssueId: issueId }, { targetIssueId: issueId }] },
      { orderBy: { id: 'asc' } },
    );
    const otherIds = links.map((link) => (link.sourceIssueId === issueId ? link.targetIssueId : link.sourceIssueId));
    const issues = otherIds.length === 0 ? [] : await this.#em.find(Issue, { id: { $in: otherIds } });
    const byId = new Map(issues.map((issue) => [issue.id, issue]));
    return links.flatMap((link) => {
      const outgoing = link.sourceIssueId === issueId;
      const issue = byId.get(outgoing ? link.targetIssueId : link.sourceIssueId);
      if (!issue) return [];
      const linkType = link.linkType === 'blocks' && !outgoing ? 'is_blocked_by' : link.linkType;
      return [{ issue, link, linkType }];
    });
  }

  between(issueId: number, otherIssueId: number): Promise<IssueLink | null> {
    return this.#em.findOne(IssueLink, {
      $or: [
        { sourceIssueId: issueId, targetIssueId: otherIssueId },
        { sourceIssueId: otherIssueId, targetIssueId: issueId },
      ],
    });
  }

  find(issueId: number, linkId: number): Promise<IssueLink | null> {
    return this.#em.findOne(IssueLink, { id: linkId, $or: [{ sourceIssueId: issueId }, { targetIssueId: issueId }] });
  }

  async create(link: NewIssueLink): Promise<IssueLink> {
    const created = this.#em.create(IssueLink, link as IssueLink);
    await this.#em.flush();
    return created;
  }

  async delete(link: IssueLink): Promise<void> {
    await this.#em.nativeDelete(IssueLink, { id: link.id });
  }
}
