import type { EventActor, OutgoingEvent } from '@platform/events';
import type { Presence } from '../core/label-filter.ts';
import type { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import type { MergeRequestFilter, MergeRequestOrder, MergeRequestStore, NewMergeRequest } from './merge-requests-store.ts';

/** An event a change wrote, with who acted. */
export interface WrittenEvent {
  type: string;
  data: Record<string, unknown>;
  actor: EventActor | null;
}

/** `None` / `Any` of an array column are about its length; a value is matched by `matches`. */
function arrayMatches<Value>(values: unknown[], presence: Presence<Value> | undefined, matches: (value: Value) => boolean): boolean {
  if (!presence) return true;
  if (presence.kind === 'none') return values.length === 0;
  if (presence.kind === 'any') return values.length > 0;
  return matches(presence.value);
}

function matchesFilter(mergeRequest: MergeRequest, filter: MergeRequestFilter): boolean {
  const milestoneId = mergeRequest.milestoneId ?? null;
  const searched = (text: string) => text.toLowerCase().includes(filter.search?.text.toLowerCase() ?? '');
  return (
    (!filter.projectIds || filter.projectIds.includes(mergeRequest.projectId)) &&
    (filter.groupId === undefined || mergeRequest.targetNamespaceIds.includes(filter.groupId)) &&
    (!filter.ids || filter.ids.includes(mergeRequest.id)) &&
    (!filter.iids || filter.iids.includes(mergeRequest.iid)) &&
    !filter.notIds?.includes(mergeRequest.id) &&
    (!filter.states || filter.states.includes(mergeRequest.state)) &&
    (filter.authorId === undefined || mergeRequest.authorId === filter.authorId) &&
    (filter.notAuthorId === undefined || mergeRequest.authorId !== filter.notAuthorId) &&
    arrayMatches<number>(mergeRequest.assigneeIds, filter.assignee, (id) => mergeRequest.assigneeIds.includes(id)) &&
    (filter.notAssigneeId === undefined || !mergeRequest.assigneeIds.includes(filter.notAssigneeId)) &&
    arrayMatches<number>(mergeRequest.reviewerIds, filter.reviewer, (id) => mergeRequest.reviewerIds.includes(id)) &&
    (filter.involvedUserId === undefined ||
      mergeRequest.assigneeIds.includes(filter.involvedUserId) ||
      mergeRequest.reviewerIds.includes(filter.involvedUserId)) &&
    arrayMatches(mergeRequest.labels, filter.labels, (labels) => labels.every((label) => mergeRequest.labels.includes(label))) &&
    !(filter.notLabels ?? []).some((label) => mergeRequest.labels.includes(label)) &&
    (filter.milestone?.kind !== 'none' || milestoneId === null) &&
    (filter.milestone?.kind !== 'any' || milestoneId !== null) &&
    (filter.milestone?.kind !== 'is' || (milestoneId !== null && filter.milestone.value.includes(milestoneId))) &&
    (!filter.notMilestoneIds || milestoneId === null || !filter.notMilestoneIds.includes(milestoneId)) &&
    (filter.sourceBranch === undefined || mergeRequest.sourceBranch === filter.sourceBranch) &&
    (filter.targetBranch === undefined || mergeRequest.targetBranch === filter.targetBranch) &&
    (!filter.search ||
      (filter.search.inTitle && searched(mergeRequest.title)) ||
      (filter.search.inDescription && searched(mergeRequest.description))) &&
    (filter.draft === undefined || mergeRequest.draft === filter.draft) &&
    (!filter.createdAfter || mergeRequest.createdAt >= filter.createdAfter) &&
    (!filter.createdBefore || mergeRequest.createdAt <= filter.createdBefore) &&
    (!filter.updatedAfter || mergeRequest.updatedAt >= filter.updatedAfter) &&
    (!filter.updatedBefore || mergeRequest.updatedAt <= filter.updatedBefore)
  );
}

/** Merge requests in memory, for unit tests: each read answers a copy, as a fresh unit of work would; `events` keeps what changes wrote. */
export class FakeMergeRequestStore implements MergeRequestStore {
  readonly #rows = new Map<number, MergeRequest>();
  readonly #versions: MergeRequestDiff[] = [];
  readonly events: WrittenEvent[] = [];
  #nextId = 1;

  #write(events: OutgoingEvent[], actor: EventActor | null): void {
    for (const event of events) this.events.push({ type: event.type, data: event.data, actor });
  }

  #copies(filter: (mergeRequest: MergeRequest) => boolean): MergeRequest[] {
    return [...this.#rows.values()].filter(filter).map((mergeRequest) => structuredClone(mergeRequest));
  }

  async create(options: { mergeRequest: NewMergeRequest; event: (created: MergeRequest) => OutgoingEvent; actor: EventActor | null }) {
    const iid = Math.max(0, ...this.#copies((row) => row.projectId === options.mergeRequest.projectId).map((row) => row.iid)) + 1;
    const created = { ...structuredClone(options.mergeRequest), id: this.#nextId++, iid } as MergeRequest;
    this.#rows.set(created.id, created);
    this.#write([options.event(created)], options.actor);
    return structuredClone(created);
  }

  async find(projectId: number, iid: number) {
    return this.#copies((row) => row.projectId === projectId && row.iid === iid)[0] ?? null;
  }

  async findOpen(options: { projectId: number; sourceProjectId: number; sourceBranch: string; targetBranch: string }) {
    const open = this.#copies(
      (row) =>
        row.state === 'opened' &&
        row.projectId === options.projectId &&
        row.sourceProjectId === options.sourceProjectId &&
        row.sourceBranch === options.sourceBranch &&
        row.targetBranch === options.targetBranch,
    );
    return open.sort((a, b) => a.iid - b.iid)[0] ?? null;
  }

  async openBySource(sourceProjectId: number, branches: string[]) {
    return this.#copies((row) => row.state === 'opened' && row.sourceProjectId === sourceProjectId && branches.includes(row.sourceBranch));
  }

  async openByTarget(projectId: number, branches: string[]) {
    return this.#copies((row) => row.state === 'opened' && row.projectId === projectId && branches.includes(row.targetBranch));
  }

  async openFromFork(sourceProjectId: number) {
    return this.#copies((row) => row.state === 'opened' && row.sourceProjectId === sourceProjectId && row.projectId !== sourceProjectId);
  }

  async save(options: { mergeRequest: MergeRequest; events: OutgoingEvent[]; actor: EventActor | null }) {
    if (this.#rows.has(options.mergeRequest.id)) this.#rows.set(options.mergeRequest.id, structuredClone(options.mergeRequest));
    this.#write(options.events, options.actor);
  }

  async list(options: { filter: MergeRequestFilter; order: MergeRequestOrder; offset: number; limit: number }) {
    const field = options.order.by === 'created_at' ? 'createdAt' : options.order.by === 'updated_at' ? 'updatedAt' : 'title';
    const direction = options.order.direction === 'asc' ? 1 : -1;
    const all = this.#copies((row) => matchesFilter(row, options.filter)).sort(
      (a, b) => direction * (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id - b.id),
    );
    return { items: all.slice(options.offset, options.offset + options.limit), total: all.length };
  }

  async addVersion(version: Omit<MergeRequestDiff, 'id'>) {
    const added = { ...version, id: this.#versions.length + 1 } as MergeRequestDiff;
    this.#versions.push(added);
    return { ...added };
  }

  async versions(mergeRequestId: number) {
    return this.#versions.filter((version) => version.mergeRequestId === mergeRequestId).reverse();
  }

  async delete(id: number) {
    this.#rows.delete(id);
  }

  async spendTime(options: { id: number; seconds: number | 'reset'; event: (changed: MergeRequest) => OutgoingEvent; actor: EventActor }) {
    const row = this.#rows.get(options.id);
    if (!row) return null;
    const total = options.seconds === 'reset' ? 0 : row.totalTimeSpent + options.seconds;
    if (total < 0) return null;
    Object.assign(row, { totalTimeSpent: total, updatedAt: new Date() });
    this.#write([options.event(row)], options.actor);
    return structuredClone(row);
  }

  async startRebase(options: { id: number; now: Date; staleBefore: Date }) {
    const row = this.#rows.get(options.id);
    if (!row || row.state !== 'opened' || (row.rebaseStartedAt && row.rebaseStartedAt >= options.staleBefore)) return false;
    row.rebaseStartedAt = options.now;
    return true;
  }

  async finishRebase(options: { id: number; mergeError: string | null }) {
    const row = this.#rows.get(options.id);
    if (row) Object.assign(row, { rebaseStartedAt: null, mergeError: options.mergeError });
  }

  async involvedUserIds() {
    return [...new Set([...this.#rows.values()].flatMap((row) => [row.authorId, ...row.assigneeIds, ...row.reviewerIds]))];
  }
}
