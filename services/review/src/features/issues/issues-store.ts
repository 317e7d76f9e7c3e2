import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { insertWithEvent, recordEvent } from '@platform/events/database';
import type { Presence } from '../core/label-filter.ts';
import { Issue } from './issue.entity.ts';
import { IssueUserAgentDetail } from './issue-user-agent-detail.entity.ts';
import { likePattern } from '@platform/db';
import { nextIid } from '../../project-iids.ts';

export type NewIssue = Omit<Issue, 'id' | 'iid'>;

export interface IssueFilter {
  projectId: number;
  iids?: number[];
  state?: 'opened' | 'closed';
  labels?: Presence<string[]>;
  notLabels?: string[];
  milestone?: Presence<number>;
  /** Issues without this milestone (those without any included). */
  notMilestoneId?: number;
  authorId?: number;
  assignee?: Presence<number>;
  search?: { text: string; inTitle: boolean; inDescription: boolean };
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** Confidential issues only show to this user when they wrote or are assigned them; undefined shows them all. */
  confidentialVisibleTo?: number | null;
}

export interface IssueOrder {
  by: 'created_at' | 'updated_at' | 'title' | 'due_date';
  direction: 'asc' | 'desc';
}

/** Where an issue was created from: the client's user agent and address. */
export interface UserAgentOrigin {
  userAgent: string;
  ipAddress: string;
}

export interface IssueStore {
  /** Adds the issue with the project's next iid and its created event (and where it came from), in the caller's transaction. */
  create(options: {
    issue: NewIssue;
    event: (created: Issue) => OutgoingEvent;
    actor: EventActor | null;
    origin?: UserAgentOrigin | undefined;
  }): Promise<Issue>;
  userAgentDetail(issueId: number): Promise<IssueUserAgentDetail | null>;
  find(projectId: number, iid: number): Promise<Issue | null>;
  byIids(projectId: number, iids: number[]): Promise<Issue[]>;
  byIds(ids: number[]): Promise<Issue[]>;
  /** The issues of any projects planned for a milestone, newest first. */
  byMilestone(milestoneId: number): Promise<Issue[]>;
  list(options: { filter: IssueFilter; order: IssueOrder; offset: number; limit: number }): Promise<{ items: Issue[]; total: number }>;
  /** Writes the changes and the events they caused, in the caller's transaction. */
  save(options: { issue: Issue; events: OutgoingEvent[]; actor: EventActor | null }): Promise<void>;
  /** Issues `authorId` created since `since`: what the creation rate limit counts. */
  countCreatedSince(authorId: number, since: Date): Promise<number>;
  /** Open issues assigned to `userId`, in every project: what `/user_counts` shows. */
  countOpenAssignedTo(userId: number): Promise<number>;
}

type Where = Record<string, unknown>;

function arrayPresenceWhere<Value>(column: string, presence: Presence<Value> | undefined, matches: (value: Value) => Where): Where[] {
  if (!presence) return [];
  if (presence.kind === 'none') return [{ [raw(`cardinality(${column})`)]: 0 }];
  if (presence.kind === 'any') return [{ [raw(`cardinality(${column})`)]: { $gt: 0 } }];
  return [matches(presence.value)];
}

function whereOf(filter: IssueFilter): Where {
  const all: Where[] = [{ projectId: filter.projectId }];
  if (filter.iids) all.push({ iid: { $in: filter.iids } });
  if (filter.state) all.push({ state: filter.state });
  all.push(...arrayPresenceWhere('labels', filter.labels, (labels: string[]) => ({ labels: { $contains: labels } })));
  if (filter.notLabels?.length) all.push({ $not: { labels: { $overlap: filter.notLabels } } });
  if (filter.milestone?.kind === 'none') all.push({ milestoneId: null });
  if (filter.milestone?.kind === 'any') all.push({ milestoneId: { $ne: null } });
  if (filter.milestone?.kind === 'is') all.push({ milestoneId: filter.milestone.value });
  if (filter.notMilestoneId !== undefined) all.push({ $or: [{ milestoneId: null }, { milestoneId: { $ne: filter.notMilestoneId } }] });
  if (filter.authorId !== undefined) all.push({ authorId: filter.authorId });
  all.push(...arrayPresenceWhere('assignee_ids', filter.assignee, (id: number) => ({ assigneeIds: { $contains: [id] } })));
  if (filter.search) {
    const pattern = likePattern(filter.search.text);
    all.push({
      $or: [
        ...(filter.search.inTitle ? [{ title: { $ilike: pattern } }] : []),
        ...(filter.search.inDescription ? [{ description: { $ilike: pattern } }] : []),
      ],
    });
  }
  if (filter.createdAfter) all.push({ createdAt: { $gte: filter.createdAfter } });
  if (filter.createdBefore) all.push({ createdAt: { $lte: filter.createdBefore } });
  if (filter.updatedAfter) all.push({ updatedAt: { $gte: filter.updatedAfter } });
  if (filter.updatedBefore) all.push({ updatedAt: { $lte: filter.updatedBefore } });
  if (filter.confidentialVisibleTo !== undefined) {
    const viewer = filter.confidentialVisibleTo;
    all.push({
      $or: [{ confidential: false }, ...(viewer === null ? [] : [{ authorId: viewer }, { assigneeIds: { $contains: [viewer] } }])],
    });
  }
  return { $and: all };
}

const ORDER_FIELDS = { created_at: 'createdAt', updated_at: 'updatedAt', title: 'title', due_date: 'dueDate' } as const;

export class PgIssueStore implements IssueStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async create(options: {
    issue: NewIssue;
    event: (created: Issue) => OutgoingEvent;
    actor: EventActor | null;
    origin?: UserAgentOrigin | undefined;
  }): Promise<Issue> {
    const em = this.#em;
    const iid = await nextIid(em, 'issues', options.issue.projectId);
    const created = await insertWithEvent(em, Issue, { ...options.issue, iid } as Issue, options);
    if (options.origin) {
      em.create(IssueUserAgentDetail, { issueId: created.id, ...options.origin, submitted: false, createdAt: created.createdAt });
      await em.flush();
    }
    return created;
  }

  userAgentDetail(issueId: number): Promise<IssueUserAgentDetail | null> {
    return this.#em.findOne(IssueUserAgentDetail, { issueId });
  }

  find(projectId: number, iid: number): Promise<Issue | null> {
    return this.#em.findOne(Issue, { projectId, iid });
  }

  byIids(projectId: number, iids: number[]): Promise<Issue[]> {
    if (iids.length === 0) return Promise.resolve([]);
    return this.#em.find(Issue, { projectId, iid: { $in: iids } }, { orderBy: { iid: 'asc' } });
  }

  byIds(ids: number[]): Promise<Issue[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#em.find(Issue, { id: { $in: [...new Set(ids)] } }, { orderBy: { id: 'asc' } });
  }

  byMilestone(milestoneId: number): Promise<Issue[]> {
    return this.#em.find(Issue, { milestoneId }, { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }

  async list(options: { filter: IssueFilter; order: IssueOrder; offset: number; limit: number }) {
    const field = ORDER_FIELDS[options.order.by];
    const direction = options.order.by === 'due_date' ? `${options.order.direction} nulls last` : options.order.direction;
    const [items, total] = await this.#em.findAndCount(Issue, whereOf(options.filter), {
      orderBy: [{ [field]: direction }, { id: options.order.direction }],
      offset: options.offset,
      limit: options.limit,
    });
    return { items, total };
  }

  async save(options: { issue: Issue; events: OutgoingEvent[]; actor: EventActor | null }): Promise<void> {
    const em = this.#em;
    const { id, ...changes } = options.issue;
    await em.nativeUpdate(Issue, { id }, changes);
    for (const event of options.events) recordEvent(em, { ...event, actor: options.actor });
  }

  countCreatedSince(authorId: number, since: Date): Promise<number> {
    return this.#em.count(Issue, { authorId, createdAt: { $gte: since } });
  }

  countOpenAssignedTo(userId: number): Promise<number> {
    return this.#em.count(Issue, { state: 'opened', assigneeIds: { $contains: [userId] } });
  }
}
