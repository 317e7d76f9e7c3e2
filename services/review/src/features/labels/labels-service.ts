import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import { reviewEvents } from '@platform/review-client';
import type { GroupLabel } from './group-label.entity.ts';
import type { GroupLabelStore } from './group-labels-store.ts';
import type { Label } from './label.entity.ts';
import { labelColorOf } from './label-color.ts';
import type { LabelCounts, LabelStore } from './labels-store.ts';
import type { LabelSubscriptionStore } from './label-subscriptions-store.ts';

/** A project or group label as merge requests, issues and label lists show it. */
export interface ListedLabel {
  id: number;
  title: string;
  color: string;
  description: string | null;
  priority: number | null;
  isProjectLabel: boolean;
}

export function listedProjectLabel(label: Label): ListedLabel {
  const { id, title, color } = label;
  return { id, title, color, description: label.description ?? null, priority: label.priority ?? null, isProjectLabel: true };
}

export function listedGroupLabel(label: GroupLabel): ListedLabel {
  const { id, title, color } = label;
  return { id, title, color, description: label.description ?? null, priority: null, isProjectLabel: false };
}

/** The color GitLab gives a label it creates on the fly (from a merge request's or issue's `labels`). */
export const DEFAULT_LABEL_COLOR = '#6699cc';

export interface LabelInput {
  name?: string | undefined;
  color?: string | undefined;
  description?: string | null | undefined;
  /** null removes the priority. */
  priority?: number | null | undefined;
}

/** What webhooks show of a label beside its name and color. */
function labelTimes(label: Label | GroupLabel) {
  return { description: label.description ?? '', createdAt: label.createdAt.toISOString(), updatedAt: label.updatedAt.toISOString() };
}

function labelEvent(label: Label) {
  return {
    aggregateId: label.projectId,
    data: { projectId: label.projectId, groupId: 0, labelId: label.id, name: label.title, color: label.color, ...labelTimes(label) },
  };
}

function groupLabelEvent(label: GroupLabel) {
  return {
    aggregateId: label.groupId,
    data: { projectId: 0, groupId: label.groupId, labelId: label.id, name: label.title, color: label.color, ...labelTimes(label) },
  };
}

/** GitLab's label validations, as `{"message": {"title": [...], "color": [...]}}`. */
function validated(input: LabelInput): { title?: string; color?: string } {
  const problems: Record<string, string[]> = {};
  const title = input.name?.trim();
  if (title !== undefined) {
    if (title === '') problems.title = ["can't be blank"];
    else if (title.includes(',')) problems.title = ['is invalid'];
  }
  const color = input.color === undefined ? undefined : labelColorOf(input.color);
  if (input.color !== undefined && color === undefined) problems.color = ['must be a valid color code'];
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
  return { ...(title === undefined ? {} : { title }), ...(color === undefined ? {} : { color }) };
}

/** The columns a new label of either kind starts with, from a create request's input. */
function newLabelColumns(input: LabelInput & { name: string; color: string }) {
  const { title, color } = validated(input);
  const now = new Date();
  return {
    title: title ?? '',
    color: color ?? DEFAULT_LABEL_COLOR,
    description: input.description ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Applies an update request's input to a label of either kind; answers the title it had. */
function changeLabel(label: Label | GroupLabel, input: LabelInput): string {
  const { title, color } = validated(input);
  const previousTitle = label.title;
  if (title !== undefined) label.title = title;
  if (color !== undefined) label.color = color;
  if (input.description !== undefined) label.description = input.description;
  label.updatedAt = new Date();
  return previousTitle;
}

/** Records a subscription choice; false when the user already was in that state. */
function chooseSubscription(store: LabelSubscriptionStore, labelId: number, userId: number, subscribed: boolean): Promise<boolean> {
  return subscribed ? store.subscribe(labelId, userId) : store.unsubscribe(labelId, userId);
}

export class LabelsService {
  readonly #em: EntityManager;
  readonly #store: LabelStore;
  readonly #groupStore: GroupLabelStore;
  readonly #subscriptions: LabelSubscriptionStore;
  /** A project's namespace and its ancestors, top-level first: whose group labels the project uses. */
  readonly #namespaceIdsOf: (projectId: number) => Promise<number[]>;

  constructor(options: {
    em: EntityManager;
    store: LabelStore;
    groupStore: GroupLabelStore;
    subscriptions: LabelSubscriptionStore;
    namespaceIdsOf: (projectId: number) => Promise<number[]>;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#groupStore = options.groupStore;
    this.#subscriptions = options.subscriptions;
    this.#namespaceIdsOf = options.namespaceIdsOf;
  }

  /** The labels among `labelIds` the user follows (none for an anonymous caller). */
  subscribedAmong(labelIds: number[], userId: number | null): Promise<Set<number>> {
    return userId === null ? Promise.resolve(new Set()) : this.#subscriptions.subscribedAmong(labelIds, userId);
  }

  /**
   * Subscribes the user to a label the project sees (its own or a group's), or unsubscribes them:
   * the label, or null when the user already was in that state (GitLab's 304).
   */
  async subscribe(projectId: number, idOrTitle: string, userId: number, subscribed: boolean): Promise<ListedLabel | null> {
    const label = await this.getVisible(projectId, idOrTitle);
    return (await chooseSubscription(this.#subscriptions, label.id, userId, subscribed)) ? label : null;
  }

  /** The project's labels, and with `includeAncestorGroups` those of its groups, ordered by title. */
  async list(
    projectId: number,
    options: { search?: string | undefined; offset: number; limit: number; includeAncestorGroups: boolean },
  ): Promise<{ items: ListedLabel[]; total: number }> {
    // Both lists up to the page's end, merged by title: the page is their union's.
    const upToPage = { search: options.search, offset: 0, limit: options.offset + options.limit };
    const [own, inherited] = await Promise.all([
      this.#store.list(projectId, upToPage),
      options.includeAncestorGroups ? this.#groupStore.list(await this.#namespaceIdsOf(projectId), upToPage) : { items: [], total: 0 },
    ]);
    const merged = [...own.items.map(listedProjectLabel), ...inherited.items.map(listedGroupLabel)].sort((a, b) =>
      a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id,
    );
    return { items: merged.slice(options.offset, options.offset + options.limit), total: own.total + inherited.total };
  }

  async get(projectId: number, idOrTitle: string): Promise<Label> {
    const found = await this.#store.find(projectId, idOrTitle);
    if (!found) throw new NotFoundError('Label');
    return found;
  }

  /** A label of the project, or else of one of its groups. */
  async getVisible(projectId: number, idOrTitle: string): Promise<ListedLabel> {
    const own = await this.#store.find(projectId, idOrTitle);
    if (own) return listedProjectLabel(own);
    const inherited = await this.#groupStore.find(await this.#namespaceIdsOf(projectId), idOrTitle);
    if (!inherited) throw new NotFoundError('Label');
    return listedGroupLabel(inherited);
  }

  /** The labels of these titles the project sees: its own, else its nearest group's. */
  async visibleByTitles(projectId: number, titles: string[]): Promise<ListedLabel[]> {
    const own = await this.#store.byTitles(projectId, titles);
    const ownTitles = new Set(own.map((label) => label.title));
    const rest = titles.filter((title) => !ownTitles.has(title));
    const namespaceIds = rest.length > 0 ? await this.#namespaceIdsOf(projectId) : [];
    const nearestFirst = (await this.#groupStore.byTitles(namespaceIds, rest)).sort(
      (a, b) => namespaceIds.indexOf(b.groupId) - namespaceIds.indexOf(a.groupId),
    );
    const inherited = new Map<string, GroupLabel>();
    for (const label of nearestFirst) if (!inherited.has(label.title)) inherited.set(label.title, label);
    return [...own.map(listedProjectLabel), ...[...inherited.values()].map(listedGroupLabel)];
  }

  counts(projectId: number, titles: string[]): Promise<Map<string, LabelCounts>> {
    return this.#store.counts(projectId, titles);
  }

  async create(projectId: number, caller: AuthenticatedCaller, input: LabelInput & { name: string; color: string }): Promise<Label> {
    return this.#em.transactional(() =>
      this.#store.create({
        label: { projectId, ...newLabelColumns(input), priority: input.priority ?? null },
        event: (created) => reviewEvents.labelCreated.event(labelEvent(created)),
        actor: actorOf(caller),
      }),
    );
  }

  async update(projectId: number, caller: AuthenticatedCaller, idOrTitle: string, input: LabelInput): Promise<Label> {
    const label = await this.get(projectId, idOrTitle);
    const previousTitle = changeLabel(label, input);
    if (input.priority !== undefined) label.priority = input.priority;
    await this.#em.transactional(() =>
      this.#store.update({ label, previousTitle, event: reviewEvents.labelUpdated.event(labelEvent(label)), actor: actorOf(caller) }),
    );
    return label;
  }

  async delete(projectId: number, caller: AuthenticatedCaller, idOrTitle: string): Promise<void> {
    const label = await this.get(projectId, idOrTitle);
    await this.#em.transactional(async () => {
      await this.#store.delete({ label, event: reviewEvents.labelDeleted.event(labelEvent(label)), actor: actorOf(caller) });
      await this.#subscriptions.forget(label.id);
    });
  }

  /**
   * Promotes a project label to the project's group (GitLab's `Labels::PromoteService`): the group's
   * label of that title, made from this one unless the group has one, takes its place, with its
   * followers; what carried the project label carries the group's, of the same title.
   */
  async promote(projectId: number, caller: AuthenticatedCaller, idOrTitle: string, groupId: number): Promise<GroupLabel> {
    const label = await this.get(projectId, idOrTitle);
    return this.#em.transactional(async () => {
      const existing = (await this.#groupStore.byTitles([groupId], [label.title]))[0];
      const groupLabel =
        existing ??
        (await this.#groupStore.create({
          label: {
            groupId,
            title: label.title,
            color: label.color,
            description: label.description ?? null,
            createdAt: new Date(),
            updatedAt: new Date(),
          },
          event: (created) => reviewEvents.labelCreated.event(groupLabelEvent(created)),
          actor: actorOf(caller),
        }));
      await this.#store.replace({ label, event: reviewEvents.labelDeleted.event(labelEvent(label)), actor: actorOf(caller) });
      await this.#subscriptions.move(label.id, groupLabel.id);
      return groupLabel;
    });
  }

  /**
   * Creates the titles neither the project nor its groups have, as GitLab does for `labels` of
   * merge requests and issues; answers them all, valid or not.
   */
  async ensure(projectId: number, caller: AuthenticatedCaller, titles: string[]): Promise<string[]> {
    const wanted = [...new Set(titles.map((title) => title.trim()).filter((title) => title !== ''))];
    if (wanted.length === 0) return wanted;
    const inherited = new Set((await this.#groupStore.byTitles(await this.#namespaceIdsOf(projectId), wanted)).map((label) => label.title));
    await this.#em.transactional(() =>
      this.#store.ensure({
        projectId,
        titles: wanted.filter((title) => !inherited.has(title)),
        color: DEFAULT_LABEL_COLOR,
        event: (created) => reviewEvents.labelCreated.event(labelEvent(created)),
        actor: actorOf(caller),
      }),
    );
    return wanted;
  }
}

/** A group's labels: GitLab's `/groups/:id/labels`. */
export class GroupLabelsService {
  readonly #em: EntityManager;
  readonly #store: GroupLabelStore;
  readonly #subscriptions: LabelSubscriptionStore;

  constructor(options: { em: EntityManager; store: GroupLabelStore; subscriptions: LabelSubscriptionStore }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#subscriptions = options.subscriptions;
  }

  /** The labels among `labelIds` the user follows (none for an anonymous caller). */
  subscribedAmong(labelIds: number[], userId: number | null): Promise<Set<number>> {
    return userId === null ? Promise.resolve(new Set()) : this.#subscriptions.subscribedAmong(labelIds, userId);
  }

  /** Subscribes the user to the group's label or unsubscribes them: the label, or null when nothing changed (GitLab's 304). */
  async subscribe(groupId: number, idOrTitle: string, userId: number, subscribed: boolean): Promise<GroupLabel | null> {
    const label = await this.get(groupId, idOrTitle);
    return (await chooseSubscription(this.#subscriptions, label.id, userId, subscribed)) ? label : null;
  }

  /** The group's labels, and with `ancestorIds` (top-level first) those of its ancestors. */
  list(groupIds: number[], options: { search?: string | undefined; offset: number; limit: number }) {
    return this.#store.list(groupIds, options);
  }

  async get(groupId: number, idOrTitle: string): Promise<GroupLabel> {
    const found = await this.#store.find([groupId], idOrTitle);
    if (!found) throw new NotFoundError('Label');
    return found;
  }

  async create(groupId: number, caller: AuthenticatedCaller, input: LabelInput & { name: string; color: string }): Promise<GroupLabel> {
    return this.#em.transactional(() =>
      this.#store.create({
        label: { groupId, ...newLabelColumns(input) },
        event: (created) => reviewEvents.labelCreated.event(groupLabelEvent(created)),
        actor: actorOf(caller),
      }),
    );
  }

  async update(groupId: number, caller: AuthenticatedCaller, idOrTitle: string, input: LabelInput): Promise<GroupLabel> {
    const label = await this.get(groupId, idOrTitle);
    const previousTitle = changeLabel(label, input);
    await this.#em.transactional(() =>
      this.#store.update({
        label,
        previousTitle,
        event: reviewEvents.labelUpdated.event(groupLabelEvent(label)),
        actor: actorOf(caller),
      }),
    );
    return label;
  }

  async delete(groupId: number, caller: AuthenticatedCaller, idOrTitle: string): Promise<void> {
    const label = await this.get(groupId, idOrTitle);
    await this.#em.transactional(async () => {
      await this.#store.delete({ label, event: reviewEvents.labelDeleted.event(groupLabelEvent(label)), actor: actorOf(caller) });
      await this.#subscriptions.forget(label.id);
    });
  }
}
