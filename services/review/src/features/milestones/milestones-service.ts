import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError, RefusedError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { OutgoingEvent } from '@platform/events';
import { reviewEvents } from '@platform/review-client';
import type { Milestone } from './milestone.entity.ts';
import type { MilestoneFilter, MilestoneParent, MilestoneStore } from './milestones-store.ts';

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
    // A group milestone's events are keyed by its group and name no project.
    aggregateId: milestone.projectId ?? milestone.groupId ?? 0,
    data: {
      projectId: milestone.projectId ?? 0,
      milestoneId: milestone.id,
      iid: milestone.iid,
      title: milestone.title,
      state: milestone.state,
    },
  };
}

/** GitLab's words for a title another milestone of the project or its group holds. */
const TITLE_TAKEN = 'already being used for another group or project milestone.';

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
  /** A project's namespace and its ancestors, top-level first: whose group milestones the project uses. */
  readonly #namespaceIdsOf: (projectId: number) => Promise<number[]>;

  constructor(options: { em: EntityManager; store: MilestoneStore; namespaceIdsOf: (projectId: number) => Promise<number[]> }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#namespaceIdsOf = options.namespaceIdsOf;
  }

  /** A project's milestones, or a group's; `parent` names both a project and its groups for a project's with its groups'. */
  list(parent: MilestoneParent, options: { filter: MilestoneFilter; offset: number; limit: number }) {
    return this.#store.list(parent, options);
  }

  async get(projectId: number, id: number): Promise<Milestone> {
    return this.#found(await this.#store.find({ projectId }, id));
  }

  async getInGroup(groupId: number, id: number): Promise<Milestone> {
    return this.#found(await this.#store.find({ groupIds: [groupId] }, id));
  }

  #found(milestone: Milestone | null): Milestone {
    if (!milestone) throw new NotFoundError('Milestone');
    return milestone;
  }

  /** Whether the project uses the milestone: its own, or one of its groups'. */
  async #usedBy(projectId: number, milestone: Milestone, groupIds?: number[]): Promise<boolean> {
    if (milestone.projectId === projectId) return true;
    if (milestone.groupId === null || milestone.groupId === undefined) return false;
    return (groupIds ?? (await this.#namespaceIdsOf(projectId))).includes(milestone.groupId);
  }

  /** The milestones among `ids` the project uses (its own and its groups'), by id. */
  async byIds(projectId: number, ids: number[]): Promise<Map<number, Milestone>> {
    const found = await this.#store.byIds(ids);
    const groupIds = found.some((milestone) => milestone.projectId !== projectId) ? await this.#namespaceIdsOf(projectId) : [];
    const used = [];
    for (const milestone of found) if (await this.#usedBy(projectId, milestone, groupIds)) used.push(milestone);
    return new Map(used.map((milestone) => [milestone.id, milestone]));
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
      if (milestone && (await this.#usedBy(item.projectId, milestone))) carried.set(item.id, milestone);
    }
    return carried;
  }

  /** A milestone id the project uses, as given to a merge request: 0 or null is none, an unknown one 404. */
  async given(projectId: number, milestoneId: number | null | undefined): Promise<number | null | undefined> {
    if (milestoneId === undefined) return undefined;
    if (milestoneId === null || milestoneId === 0) return null;
    if (!(await this.byIds(projectId, [milestoneId])).has(milestoneId)) throw new NotFoundError('Milestone');
    return milestoneId;
  }

  /**
   * GitLab's rule that a title is used once among a project's milestones and its group's, and so
   * among a group's and its own projects' (the project's own duplicates are the database's to refuse).
   */
  async #requireTitleFree(milestone: { projectId?: number | null; groupId?: number | null; title: string }): Promise<void> {
    const { projectId, groupId, title } = milestone;
    const taken = projectId
      ? await this.#groupHasTitle((await this.#namespaceIdsOf(projectId)).at(-1), title)
      : (await this.#groupProjectsMilestonesTitled(groupId ?? 0, title)).length > 0;
    if (taken) throw new FieldValidationError({ title: [TITLE_TAKEN] });
  }

  async #groupHasTitle(groupId: number | undefined, title: string): Promise<boolean> {
    if (groupId === undefined) return false;
    const { total } = await this.#store.list({ groupIds: [groupId] }, { filter: { title }, offset: 0, limit: 1 });
    return total > 0;
  }

  /** The milestones of that title of the group's own projects (GitLab's `group.projects`, not its subgroups'). */
  async #groupProjectsMilestonesTitled(groupId: number, title: string): Promise<Milestone[]> {
    const found: Milestone[] = [];
    for (const milestone of await this.#store.projectMilestonesTitled(title)) {
      if ((await this.#namespaceIdsOf(milestone.projectId ?? 0)).at(-1) === groupId) found.push(milestone);
    }
    return found;
  }

  /** A project's milestone (`{ projectId }`) or a group's (`{ groupId }`). */
  async create(
    parent: { projectId: number; groupId?: undefined } | { groupId: number; projectId?: undefined },
    caller: AuthenticatedCaller,
    input: MilestoneInput & { title: string },
  ): Promise<Milestone> {
    const now = new Date();
    const milestone = {
      projectId: parent.projectId ?? null,
      groupId: parent.groupId ?? null,
      title: input.title.trim(),
      description: input.description ?? null,
      state: 'active',
      startDate: input.startDate ?? null,
      dueDate: input.dueDate ?? null,
      createdAt: now,
      updatedAt: now,
    };
    validate(milestone);
    await this.#requireTitleFree(milestone);
    return this.#em.transactional(() =>
      this.#store.create({
        milestone,
        event: (created) => reviewEvents.milestoneCreated.event(milestoneEvent(created)),
        actor: actorOf(caller),
      }),
    );
  }

  /** Changes a milestone found with `get` or `getInGroup`. */
  async update(milestone: Milestone, caller: AuthenticatedCaller, input: MilestoneInput): Promise<Milestone> {
    const retitled = input.title !== undefined && input.title.trim() !== milestone.title;
    if (input.title !== undefined) milestone.title = input.title.trim();
    if (input.description !== undefined) milestone.description = input.description;
    if (input.dueDate !== undefined) milestone.dueDate = input.dueDate;
    if (input.startDate !== undefined) milestone.startDate = input.startDate;
    validate(milestone);
    if (retitled) await this.#requireTitleFree(milestone);
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

  async delete(milestone: Milestone, caller: AuthenticatedCaller): Promise<void> {
    await this.#em.transactional(() =>
      this.#store.delete({ milestone, event: reviewEvents.milestoneDeleted.event(milestoneEvent(milestone)), actor: actorOf(caller) }),
    );
  }

  /**
   * Promotes a project's milestone (found with `get`) to the project's group (GitLab's `Milestones::PromoteService`):
   * the group gets a milestone of its title, description and dates, active as GitLab's copy is; the
   * issues and merge requests of the group's projects carrying a milestone of that title carry the
   * group's instead, and those project milestones are deleted.
   */
  async promote(milestone: Milestone, caller: AuthenticatedCaller, groupId: number): Promise<Milestone> {
    // A project moved into the group may hold a title the group has.
    if (await this.#groupHasTitle(groupId, milestone.title)) throw promotionFailed(`Title ${TITLE_TAKEN}`);
    const replaced = await this.#groupProjectsMilestonesTitled(groupId, milestone.title);
    const now = new Date();
    return this.#em.transactional(() =>
      this.#store.replaceWithGroupMilestone({
        milestone: {
          projectId: null,
          groupId,
          title: milestone.title,
          description: milestone.description ?? null,
          state: 'active',
          startDate: milestone.startDate ?? null,
          dueDate: milestone.dueDate ?? null,
          createdAt: now,
          updatedAt: now,
        },
        event: (created) => reviewEvents.milestoneCreated.event(milestoneEvent(created)),
        replaced,
        replacedEvents: replaced.map((old) => reviewEvents.milestoneDeleted.event(milestoneEvent(old))),
        actor: actorOf(caller),
      }),
    );
  }
}

/** GitLab's words for a promotion it refuses (400). */
function promotionFailed(reason: string): RefusedError {
  return new RefusedError(`Promotion failed - ${reason}`);
}
