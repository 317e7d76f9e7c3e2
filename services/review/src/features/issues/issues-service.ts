import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import type { OutgoingEvent } from '@platform/events';
import type { EntityManager } from '@platform/db';
import { reviewEvents } from '@platform/review-client';
import { mentioningText, type IssuableHistory, type IssuableTransition } from '../core/issuable-history.ts';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { Issue } from './issue.entity.ts';
import type { IssueFilter, IssueOrder, IssueStore, UserAgentOrigin } from './issues-store.ts';
import type { IssueUserAgentDetail } from './issue-user-agent-detail.entity.ts';

/** What an issue is created with; `triage` fields (labels, milestone, assignees) count only for those who may triage. */
export interface NewIssueInput {
  title: string;
  description: string;
  confidential: boolean;
  dueDate: string | null;
  labels?: string[] | undefined;
  milestoneId?: number | null | undefined;
  assigneeIds?: number[] | undefined;
  /** The client's user agent and address, kept as the issue's user agent detail when it sent a user agent. */
  origin?: UserAgentOrigin | undefined;
}

export interface IssueChanges {
  title?: string | undefined;
  description?: string | undefined;
  stateEvent?: 'close' | 'reopen' | undefined;
  confidential?: boolean | undefined;
  discussionLocked?: boolean | undefined;
  dueDate?: string | null | undefined;
  labels?: string[] | undefined;
  addLabels?: string[] | undefined;
  removeLabels?: string[] | undefined;
  milestoneId?: number | null | undefined;
  assigneeIds?: number[] | undefined;
}

function issueEvent(issue: Issue) {
  return {
    aggregateId: issue.projectId,
    data: {
      projectId: issue.projectId,
      issueId: issue.id,
      iid: issue.iid,
      title: issue.title,
      state: issue.state,
      authorId: issue.authorId,
      description: issue.description,
      confidential: issue.confidential,
      createdAt: issue.createdAt.toISOString(),
      updatedAt: issue.updatedAt.toISOString(),
      closedAt: issue.closedAt?.toISOString() ?? '',
      assigneeIds: issue.assigneeIds,
      milestoneId: issue.milestoneId ?? 0,
      dueDate: issue.dueDate ?? '',
      labels: issue.labels,
    },
  };
}

export class IssuesService {
  readonly #em: EntityManager;
  readonly #store: IssueStore;
  readonly #labels: LabelsService;
  readonly #milestones: MilestonesService;
  readonly #history: IssuableHistory;

  constructor(options: {
    em: EntityManager;
    store: IssueStore;
    labels: LabelsService;
    milestones: MilestonesService;
    /** Where each change is written as GitLab's system notes and resource events. */
    history: IssuableHistory;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#labels = options.labels;
    this.#milestones = options.milestones;
    this.#history = options.history;
  }

  /** A milestone id of the project, or null: GitLab drops a milestone the project does not have. */
  async #milestoneOf(projectId: number, milestoneId: number | null | undefined): Promise<number | null> {
    if (!milestoneId) return null;
    return (await this.#milestones.byIds(projectId, [milestoneId])).has(milestoneId) ? milestoneId : null;
  }

  /** `triage`: whether the caller may set labels, milestone and assignees (GitLab ignores them otherwise). */
  async create(projectId: number, caller: AuthenticatedCaller, input: NewIssueInput, triage: boolean): Promise<Issue> {
    const now = new Date();
    const labels = triage && input.labels ? await this.#labels.ensure(projectId, caller, input.labels) : [];
    const actor = actorOf(caller);
    return this.#em.transactional(async () => {
      const issue = await this.#store.create({
        issue: {
          projectId,
          title: input.title,
          description: input.description,
          state: 'opened',
          authorId: caller.userId,
          assigneeIds: triage ? [...new Set(input.assigneeIds ?? [])] : [],
          labels,
          milestoneId: triage ? await this.#milestoneOf(projectId, input.milestoneId) : null,
          confidential: input.confidential,
          discussionLocked: null,
          dueDate: input.dueDate,
          closedById: null,
          closedAt: null,
          createdAt: now,
          updatedAt: now,
        },
        event: (created) => reviewEvents.issueCreated.event(issueEvent(created)),
        actor,
        origin: input.origin,
      });
      await this.#history({ type: 'Issue', issuable: issue, mentions: { text: mentioningText(issue), author: caller }, actor, at: now });
      return issue;
    });
  }

  /** Where the issue was created from: 404 UserAgentDetail when it was created without a user agent. */
  async userAgentDetail(issue: Issue): Promise<IssueUserAgentDetail> {
    const found = await this.#store.userAgentDetail(issue.id);
    if (!found) throw new NotFoundError('UserAgentDetail');
    return found;
  }

  async get(projectId: number, iid: number): Promise<Issue> {
    const found = await this.#store.find(projectId, iid);
    if (!found) throw new NotFoundError('Issue');
    return found;
  }

  byIids(projectId: number, iids: number[]): Promise<Issue[]> {
    return this.#store.byIids(projectId, iids);
  }

  /** The issues of any projects planned for a milestone (a group's serves several), newest first. */
  byMilestone(milestoneId: number): Promise<Issue[]> {
    return this.#store.byMilestone(milestoneId);
  }

  /** The issues of these ids, of any projects. */
  byIds(ids: number[]): Promise<Issue[]> {
    return this.#store.byIds(ids);
  }

  list(options: { filter: IssueFilter; order: IssueOrder; offset: number; limit: number }) {
    return this.#store.list(options);
  }

  countCreatedSince(authorId: number, since: Date): Promise<number> {
    return this.#store.countCreatedSince(authorId, since);
  }

  countOpenAssignedTo(userId: number): Promise<number> {
    return this.#store.countOpenAssignedTo(userId);
  }

  async update(projectId: number, caller: AuthenticatedCaller, iid: number, changes: IssueChanges, triage: boolean): Promise<Issue> {
    const issue = await this.get(projectId, iid);
    const previous = { title: issue.title, description: issue.description };
    if (changes.title !== undefined) issue.title = changes.title;
    if (changes.description !== undefined) issue.description = changes.description;
    if (changes.confidential !== undefined) issue.confidential = changes.confidential;
    if (changes.discussionLocked !== undefined) issue.discussionLocked = changes.discussionLocked;
    if (changes.dueDate !== undefined) issue.dueDate = changes.dueDate;
    if (triage) {
      if (changes.labels !== undefined) issue.labels = await this.#labels.ensure(projectId, caller, changes.labels);
      if (changes.addLabels)
        issue.labels = [...new Set([...issue.labels, ...(await this.#labels.ensure(projectId, caller, changes.addLabels))])];
      if (changes.removeLabels) issue.labels = issue.labels.filter((label) => !changes.removeLabels?.includes(label));
      if (changes.milestoneId !== undefined) issue.milestoneId = await this.#milestoneOf(projectId, changes.milestoneId);
      if (changes.assigneeIds !== undefined) issue.assigneeIds = [...new Set(changes.assigneeIds)];
    }
    const now = new Date();
    const events: OutgoingEvent[] = [];
    let transition: IssuableTransition | undefined;
    if (changes.stateEvent === 'close' && issue.state === 'opened') {
      Object.assign(issue, { state: 'closed', closedAt: now, closedById: caller.userId });
      transition = 'closed';
      events.push(reviewEvents.issueClosed.event(issueEvent(issue)));
    } else if (changes.stateEvent === 'reopen' && issue.state === 'closed') {
      Object.assign(issue, { state: 'opened', closedAt: null, closedById: null });
      transition = 'reopened';
      events.push(reviewEvents.issueReopened.event(issueEvent(issue)));
    }
    issue.updatedAt = now;
    const updated = issueEvent(issue);
    const edits = {
      ...(issue.title !== previous.title ? { previousTitle: previous.title } : {}),
      ...(issue.description !== previous.description ? { descriptionChanged: true } : {}),
    };
    events.push(reviewEvents.issueUpdated.event({ ...updated, data: { ...updated.data, ...edits } }));
    const mentions = { text: mentioningText(issue), previousText: mentioningText(previous), author: caller };
    const actor = actorOf(caller);
    await this.#em.transactional(async () => {
      await this.#store.save({ issue, events, actor });
      await this.#history({ type: 'Issue', issuable: issue, transition, ...edits, mentions, actor, at: now });
    });
    return issue;
  }

  /** Closes the open issues among `iids`, as a merged merge request that closes them does (by whoever merged it). */
  async closeAll(projectId: number, caller: AuthenticatedCaller, iids: number[]): Promise<void> {
    for (const issue of await this.#store.byIids(projectId, iids)) {
      if (issue.state !== 'opened') continue;
      const now = new Date();
      Object.assign(issue, { state: 'closed', closedAt: now, closedById: caller.userId, updatedAt: now });
      const actor = actorOf(caller);
      await this.#em.transactional(async () => {
        await this.#store.save({ issue, events: [reviewEvents.issueClosed.event(issueEvent(issue))], actor });
        await this.#history({ type: 'Issue', issuable: issue, transition: 'closed', actor, at: now });
      });
    }
  }
}
