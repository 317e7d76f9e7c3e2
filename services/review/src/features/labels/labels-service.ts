import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import { reviewEvents } from '@platform/review-client';
import type { Label } from './label.entity.ts';
import { labelColorOf } from './label-color.ts';
import type { LabelCounts, LabelStore } from './labels-store.ts';

/** The color GitLab gives a label it creates on the fly (from a merge request's or issue's `labels`). */
export const DEFAULT_LABEL_COLOR = '#6699cc';

export interface LabelInput {
  name?: string | undefined;
  color?: string | undefined;
  description?: string | null | undefined;
  /** null removes the priority. */
  priority?: number | null | undefined;
}

function labelEvent(label: Label) {
  return { aggregateId: label.projectId, data: { projectId: label.projectId, labelId: label.id, name: label.title, color: label.color } };
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

export class LabelsService {
  readonly #store: LabelStore;

  constructor(options: { store: LabelStore }) {
    this.#store = options.store;
  }

  list(projectId: number, options: { search?: string | undefined; offset: number; limit: number }) {
    return this.#store.list(projectId, options);
  }

  async get(projectId: number, idOrTitle: string): Promise<Label> {
    const found = await this.#store.find(projectId, idOrTitle);
    if (!found) throw new NotFoundError('Label');
    return found;
  }

  byTitles(projectId: number, titles: string[]): Promise<Label[]> {
    return this.#store.byTitles(projectId, titles);
  }

  counts(projectId: number, titles: string[]): Promise<Map<string, LabelCounts>> {
    return this.#store.counts(projectId, titles);
  }

  async create(projectId: number, caller: AuthenticatedCaller, input: LabelInput & { name: string; color: string }): Promise<Label> {
    const { title, color } = validated(input);
    const now = new Date();
    return this.#store.create({
      label: {
        projectId,
        title: title ?? '',
        color: color ?? DEFAULT_LABEL_COLOR,
        description: input.description ?? null,
        priority: input.priority ?? null,
        createdAt: now,
        updatedAt: now,
      },
      event: (created) => reviewEvents.labelCreated.event(labelEvent(created)),
      actor: actorOf(caller),
    });
  }

  async update(projectId: number, caller: AuthenticatedCaller, idOrTitle: string, input: LabelInput): Promise<Label> {
    const label = await this.get(projectId, idOrTitle);
    const { title, color } = validated(input);
    const previousTitle = label.title;
    if (title !== undefined) label.title = title;
    if (color !== undefined) label.color = color;
    if (input.description !== undefined) label.description = input.description;
    if (input.priority !== undefined) label.priority = input.priority;
    label.updatedAt = new Date();
    await this.#store.update({ label, previousTitle, event: reviewEvents.labelUpdated.event(labelEvent(label)), actor: actorOf(caller) });
    return label;
  }

  async delete(projectId: number, caller: AuthenticatedCaller, idOrTitle: string): Promise<void> {
    const label = await this.get(projectId, idOrTitle);
    await this.#store.delete({ label, event: reviewEvents.labelDeleted.event(labelEvent(label)), actor: actorOf(caller) });
  }

  /** Creates the titles the project lacks, as GitLab does for `labels` of merge requests and issues; answers them all, valid or not. */
  async ensure(projectId: number, caller: AuthenticatedCaller, titles: string[]): Promise<string[]> {
    const wanted = [...new Set(titles.map((title) => title.trim()).filter((title) => title !== ''))];
    await this.#store.ensure({
      projectId,
      titles: wanted,
      color: DEFAULT_LABEL_COLOR,
      event: (created) => reviewEvents.labelCreated.event(labelEvent(created)),
      actor: actorOf(caller),
    });
    return wanted;
  }
}
