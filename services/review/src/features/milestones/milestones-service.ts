import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { OutgoingEvent } from '@platform/events';
import { reviewEvents } from '@platform/review-client';
import type { Milestone } from './milestone.entity.ts';
import type { MilestoneFilter, MilestoneStore } from './milestones-store.ts';

export interface MilestoneInput {
  title?: string | undefined;
  description?: string | null | undefined;
  /** `YYYY-MM-DD`; null clears it. */
  dueDate?: string | null | undefined;
  startDate?: string | null | undefined;
  stateEvent?: 'close' | 'activate' | undefined;
}

function milestoneEvent(milestone: Milestone) {
  return {
    aggregateId: milestone.projectId,
    data: {
      projectId: milestone.projectId,
      milestoneId: milestone.id,
      iid: milestone.iid,
      title: milestone.title,
      state: milestone.state,
    },
  };
}

/** GitLab's milestone validations: a title, and a due date not before the start date. */
function validate(milestone: Pick<Milestone, 'title' | 'startDate' | 'dueDate'>): void {
  const problems: Record<string, string[]> = {};
  if (milestone.title.trim() === '') problems.title = ["can't be blank"];
  if (milestone.startDate && milestone.dueDate && milestone.dueDate < milestone.startDate) {
    problems.due_date = ['must be greater than start date'];
  }
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

export class MilestonesService {
  readonly #em: EntityManager;
  readonly #store: MilestoneStore;

  constructor(options: { em: EntityManager; store: MilestoneStore }) {
    this.#em = options.em;
    this.#store = options.store;
  }

  list(projectId: number, options: { filter: MilestoneFilter; offset: number; limit: number }) {
    return this.#store.list(projectId, options);
  }

  async get(projectId: number, id: number): Promise<Milestone> {
    const found = await this.#store.find(projectId, id);
    if (!found) throw new NotFoundError('Milestone');
    return found;
  }

  /** The project's milestones among `ids`, by id (those of other projects are left out). */
  async byIds(projectId: number, ids: number[]): Promise<Map<number, Milestone>> {
    const found = await this.#store.byIds(ids);
    return new Map(found.filter((milestone) => milestone.projectId === projectId).map((milestone) => [milestone.id, milestone]));
  }

  byTitle(projectId: number, title: string): Promise<Milestone | null> {
    return this.#store.byTitle(projectId, title);
  }

  /** The ids of the milestones of that title, one per project that has one: what a `milestone` list filter matches. */
  idsByTitle(title: string): Promise<number[]> {
    return this.#store.idsByTitle(title);
  }

  /** The milestone each of `items` (merge requests, issues) carries, by item id. */
  async carriedBy(
    items: Array<{ id: number; projectId: number; milestoneId?: number | null | undefined }>,
  ): Promise<Map<number, Milestone>> {
    const milestones = await this.#store.byIds(items.flatMap((item) => (item.milestoneId ? [item.milestoneId] : [])));
    const byId = new Map(milestones.map((milestone) => [milestone.id, milestone]));
    const carried = new Map<number, Milestone>();
    for (const item of items) {
      const milestone = item.milestoneId ? byId.get(item.milestoneId) : undefined;
      if (milestone?.projectId === item.projectId) carried.set(item.id, milestone);
    }
    return carried;
  }

  /** A milestone id of the project as given to a merge request: 0 or null is none, an unknown one 404. */
  async given(projectId: number, milestoneId: number | null | undefined): Promise<number | null | undefined> {
    if (milestoneId === undefined) return undefined;
    if (milestoneId === null || milestoneId === 0) return null;
    return (await this.get(projectId, milestoneId)).id;
  }

  async create(projectId: number, caller: AuthenticatedCaller, input: MilestoneInput & { title: string }): Promise<Milestone> {
    const now = new Date();
    const milestone = {
      projectId,
      title: input.title.trim(),
      description: input.description ?? null,
      state: 'active',
      startDate: input.startDate ?? null,
      dueDate: input.dueDate ?? null,
      createdAt: now,
      updatedAt: now,
    };
    validate(milestone);
    return this.#em.transactional(() =>
      this.#store.create({
        milestone,
        event: (created) => reviewEvents.milestoneCreated.event(milestoneEvent(created)),
        actor: actorOf(caller),
      }),
    );
  }

  async update(projectId: number, caller: AuthenticatedCaller, id: number, input: MilestoneInput): Promise<Milestone> {
    const milestone = await this.get(projectId, id);
    if (input.title !== undefined) milestone.title = input.title.trim();
    if (input.description !== undefined) milestone.description = input.description;
    if (input.dueDate !== undefined) milestone.dueDate = input.dueDate;
    if (input.startDate !== undefined) milestone.startDate = input.startDate;
    validate(milestone);
    const events: OutgoingEvent[] = [];
    if (input.stateEvent === 'close' && milestone.state === 'active') {
      milestone.state = 'closed';
      events.push(reviewEvents.milestoneClosed.event(milestoneEvent(milestone)));
    } else if (input.stateEvent === 'activate' && milestone.state === 'closed') {
      milestone.state = 'active';
      events.push(reviewEvents.milestoneReopened.event(milestoneEvent(milestone)));
    }
    milestone.updatedAt = new Date();
    events.push(reviewEvents.milestoneUpdated.event(milestoneEvent(milestone)));
    await this.#em.transactional(() => this.#store.update({ milestone, events, actor: actorOf(caller) }));
    return milestone;
  }

  async delete(projectId: number, caller: AuthenticatedCaller, id: number): Promise<void> {
    const milestone = await this.get(projectId, id);
    await this.#em.transactional(() =>
      this.#store.delete({ milestone, event: reviewEvents.milestoneDeleted.event(milestoneEvent(milestone)), actor: actorOf(caller) }),
    );
  }
}
