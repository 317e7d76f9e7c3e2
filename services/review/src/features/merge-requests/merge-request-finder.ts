/** The merge request lists: their parameters, the filter they ask for, and pages of views (also served over gRPC). */
import { z } from 'zod';
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import { InputError } from '@platform/errors';
import { pageParams, pageShape, params, type PageRequest } from '@platform/http';
import type { ListedLabel } from '../labels/labels-service.ts';
import { mayReadCode } from '../repositories/repository-access.ts';
import { labelsPresence, type Presence } from '../core/label-filter.ts';
import { projectsSeenBy } from '../core/projects-seen.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import { mergeRequestView, simpleMergeRequestView, userIdsOf, type ViewedProject } from './merge-request-views.ts';
import type { MergeRequestFilter } from './merge-requests-store.ts';
import type { MergeRequestListView, MergeRequestRow } from './merge-requests-read-model.ts';
import type { MergeRequestsRouteDeps } from './merge-request-route-support.ts';

/** `None`, `Any` or an integer id, as GitLab takes `assignee_id` and `reviewer_id`. */
const presenceOfId = () =>
  z.union([params.integer(), z.string().regex(/^(none|any)$/i)]).transform((value): Presence<number> => {
    if (typeof value === 'number') return { kind: 'is', value };
    return value.toLowerCase() === 'none' ? { kind: 'none' } : { kind: 'any' };
  });

export const listShape = {
  state: z.enum(['opened', 'closed', 'locked', 'merged', 'all']).default('all'),
  order_by: z.enum(['created_at', 'updated_at', 'title']).default('created_at'),
  sort: z.enum(['asc', 'desc']).default('desc'),
  milestone: z.string().max(255).optional(),
  view: z.enum(['simple']).optional(),
  labels: z.string().max(1024).optional(),
  with_labels_details: params.boolean().default(false),
  with_merge_status_recheck: params.boolean().default(false),
  created_after: params.datetime().optional(),
  created_before: params.datetime().optional(),
  updated_after: params.datetime().optional(),
  updated_before: params.datetime().optional(),
  scope: z.enum(['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me']).optional(),
  author_id: params.integer().optional(),
  author_username: z.string().max(255).optional(),
  assignee_id: presenceOfId().optional(),
  assignee_username: z.string().max(255).optional(),
  reviewer_id: presenceOfId().optional(),
  reviewer_username: z.string().max(255).optional(),
  my_reaction_emoji: z.string().max(255).optional(),
  source_branch: z.string().max(1024).optional(),
  target_branch: z.string().max(1024).optional(),
  search: z.string().max(255).optional(),
  in: z
    .string()
    .regex(/^(title|description)(,(title|description))?$/)
    .optional(),
  wip: z.enum(['yes', 'no']).optional(),
  not: z
    .object({
      labels: z.string().max(1024).optional(),
      milestone: z.string().max(255).optional(),
      author_id: params.integer().optional(),
      author_username: z.string().max(255).optional(),
      assignee_id: params.integer().optional(),
      assignee_username: z.string().max(255).optional(),
      my_reaction_emoji: z.string().max(255).optional(),
    })
    .optional(),
  environment: z.string().max(255).optional(),
  deployed_before: params.datetime().optional(),
  deployed_after: params.datetime().optional(),
  ...pageShape,
};
type ListInput = z.output<z.ZodObject<typeof listShape>>;

/** `milestone=None|Any|<title>`: a title names each project's milestone of that title. */
async function milestonePresence(deps: MergeRequestsRouteDeps, milestone: string): Promise<Presence<number[]>> {
  if (/^none$/i.test(milestone)) return { kind: 'none' };
  if (/^any$/i.test(milestone)) return { kind: 'any' };
  return { kind: 'is', value: await deps.milestones.idsByTitle(milestone) };
}

/** The filter a list's parameters ask for; usernames are resolved among the users merge requests name. */
export async function filterOf(
  deps: MergeRequestsRouteDeps,
  caller: AuthenticatedCaller,
  input: ListInput,
  defaultScope: string,
): Promise<MergeRequestFilter> {
  if (input.author_id !== undefined && input.author_username !== undefined)
    throw new InputError('author_id, author_username are mutually exclusive');
  if (input.assignee_id !== undefined && input.assignee_username !== undefined)
    throw new InputError('assignee_id, assignee_username are mutually exclusive');
  if (input.reviewer_id !== undefined && input.reviewer_username !== undefined)
    throw new InputError('reviewer_id, reviewer_username are mutually exclusive');
  const usernames = [
    input.author_username,
    input.assignee_username,
    input.reviewer_username,
    input.not?.author_username,
    input.not?.assignee_username,
  ];
  let idOfUsername = new Map<string, number>();
  if (usernames.some((name) => name !== undefined)) {
    const users = await deps.users.users(await deps.mergeRequests.involvedUserIds(), caller);
    idOfUsername = new Map([...users.values()].map((user) => [user.username.toLowerCase(), user.id]));
  }
  // An unknown username matches nobody: id 0 is no user's.
  const idOf = (username: string) => idOfUsername.get(username.toLowerCase()) ?? 0;
  const filter: MergeRequestFilter = {};
  if (input.state !== 'all') filter.states = [input.state];
  const scope = (input.scope ?? defaultScope).replaceAll('-', '_');
  if (scope === 'created_by_me') filter.authorId = caller.userId;
  if (scope === 'assigned_to_me') filter.assignee = { kind: 'is', value: caller.userId };
  if (input.author_id !== undefined) filter.authorId = input.author_id;
  if (input.author_username !== undefined) filter.authorId = idOf(input.author_username);
  if (input.assignee_id !== undefined) filter.assignee = input.assignee_id;
  if (input.assignee_username !== undefined) filter.assignee = { kind: 'is', value: idOf(input.assignee_username) };
  if (input.reviewer_id !== undefined) filter.reviewer = input.reviewer_id;
  if (input.reviewer_username !== undefined) filter.reviewer = { kind: 'is', value: idOf(input.reviewer_username) };
  const labels = labelsPresence(input.labels);
  if (labels) filter.labels = labels;
  if (input.not?.labels)
    filter.notLabels =
      labelsPresence(input.not.labels)?.kind === 'is' ? (labelsPresence(input.not.labels) as { value: string[] }).value : [];
  if (input.not?.author_id !== undefined) filter.notAuthorId = input.not.author_id;
  if (input.not?.author_username !== undefined) filter.notAuthorId = idOf(input.not.author_username);
  if (input.not?.assignee_id !== undefined) filter.notAssigneeId = input.not.assignee_id;
  if (input.not?.assignee_username !== undefined) filter.notAssigneeId = idOf(input.not.assignee_username);
  if (input.source_branch !== undefined) filter.sourceBranch = input.source_branch;
  if (input.target_branch !== undefined) filter.targetBranch = input.target_branch;
  if (input.search) {
    const fields = (input.in ?? 'title,description').split(',');
    filter.search = { text: input.search, inTitle: fields.includes('title'), inDescription: fields.includes('description') };
  }
  if (input.wip !== undefined) filter.draft = input.wip === 'yes';
  const reaction = input.my_reaction_emoji;
  if (reaction !== undefined) {
    // `None`: no reaction of the caller's; `Any`: some reaction; else that emoji.
    if (/^none$/i.test(reaction)) filter.notIds = await deps.reactions({ userId: caller.userId });
    else filter.ids = await deps.reactions({ userId: caller.userId, name: /^any$/i.test(reaction) ? undefined : reaction });
  }
  if (input.not?.my_reaction_emoji !== undefined)
    filter.notIds = [...(filter.notIds ?? []), ...(await deps.reactions({ userId: caller.userId, name: input.not.my_reaction_emoji }))];
  if (input.created_after) filter.createdAfter = input.created_after;
  if (input.created_before) filter.createdBefore = input.created_before;
  if (input.updated_after) filter.updatedAfter = input.updated_after;
  if (input.updated_before) filter.updatedBefore = input.updated_before;
  if (input.milestone !== undefined) filter.milestone = await milestonePresence(deps, input.milestone);
  if (input.not?.milestone !== undefined) {
    // Not none is any, not any is none, not a title leaves out that title's milestones.
    const negated = await milestonePresence(deps, input.not.milestone);
    if (negated.kind === 'is') filter.notMilestoneIds = negated.value;
    else filter.milestone = { kind: negated.kind === 'none' ? 'any' : 'none' };
  }
  if (input.environment !== undefined || input.deployed_after !== undefined || input.deployed_before !== undefined) {
    const deployed = await deps.deployments.mergeRequestIds({
      environment: input.environment,
      deployedAfter: input.deployed_after,
      deployedBefore: input.deployed_before,
    });
    // Reactions may have narrowed the list already: both apply.
    filter.ids = filter.ids ? filter.ids.filter((id) => deployed.includes(id)) : deployed;
  }
  return filter;
}

/** One page of merge requests, each shown as its project names it. */
export async function listPage(options: {
  deps: MergeRequestsRouteDeps;
  caller: Caller;
  input: ListInput;
  filter: MergeRequestFilter;
  window: PageRequest;
  /** The projects the merge requests belong to, as the caller sees them; undefined for one the caller may not see. */
  projectOf: (projectId: number) => Promise<ViewedProject | undefined>;
  /** Whether references are relative to the merge requests' own project (`!3`): for all of them, or per project. */
  fromOwnProject: boolean | ((projectId: number) => boolean);
  /** Lists across projects keep only what the caller may see, page by page over the visible ones. */
  acrossProjects: boolean;
  /** Count every one, however many (gRPC callers report a total). */
  exactTotal?: boolean;
}) {
  const { deps, input } = options;
  const fromOwnProject = (projectId: number) =>
    typeof options.fromOwnProject === 'function' ? options.fromOwnProject(projectId) : options.fromOwnProject;
  if (input.view === 'simple') {
    const { items, total } = await pageRows(options, 'simple');
    const views = [];
    for (const mergeRequest of items) {
      const project = await options.projectOf(mergeRequest.projectId);
      if (project) views.push(simpleMergeRequestView(mergeRequest, { project, fromOwnProject: fromOwnProject(mergeRequest.projectId) }));
    }
    return { items: views, total };
  }
  const { items, total } = await pageRows(options, 'full');
  const users = await deps.users.users(userIdsOf(items), options.caller);
  const labelDetails = input.with_labels_details ? await labelDetailsOf(deps, items) : undefined;
  const views = [];
  for (const mergeRequest of items) {
    const project = await options.projectOf(mergeRequest.projectId);
    if (!project) continue;
    const context = {
      project,
      users,
      fromOwnProject: fromOwnProject(mergeRequest.projectId),
      labelDetails: labelDetails?.get(mergeRequest.projectId),
    };
    views.push(mergeRequestView(mergeRequest, context));
  }
  return { items: views, total };
}

/**
 * The rows of a list's page in a view. Across projects, the matching merge requests' projects are
 * read first and the page is taken among those of projects the caller may see.
 */
async function pageRows<View extends MergeRequestListView>(
  options: Parameters<typeof listPage>[0],
  view: View,
): Promise<{ items: Array<MergeRequestRow<View>>; total: number | null }> {
  const { deps, input, window } = options;
  const order = { by: input.order_by, direction: input.sort };
  if (!options.acrossProjects) {
    return deps.readModel.list({
      filter: options.filter,
      order,
      window: { offset: window.offset, limit: window.perPage },
      view,
      ...(options.exactTotal ? { exactTotal: true } : {}),
    });
  }
  const visible: number[] = [];
  for (const { id, projectId } of await deps.readModel.projectsOf({ filter: options.filter, order })) {
    if (await options.projectOf(projectId)) visible.push(id);
  }
  const ids = visible.slice(window.offset, window.offset + window.perPage);
  const { items } = await deps.readModel.list({ filter: { ids }, order, window: { offset: 0, limit: ids.length }, view });
  return { items, total: visible.length };
}

/** The labels `mergeRequests` carry, by project and title: `with_labels_details=true` shows them as objects. */
async function labelDetailsOf(
  deps: MergeRequestsRouteDeps,
  mergeRequests: Array<Pick<MergeRequest, 'projectId' | 'labels'>>,
): Promise<Map<number, Map<string, ListedLabel>>> {
  const titlesByProject = new Map<number, Set<string>>();
  for (const mergeRequest of mergeRequests) {
    const titles = titlesByProject.get(mergeRequest.projectId) ?? new Set();
    for (const title of mergeRequest.labels) titles.add(title);
    titlesByProject.set(mergeRequest.projectId, titles);
  }
  const details = new Map<number, Map<string, ListedLabel>>();
  for (const [projectId, titles] of titlesByProject) {
    const labels = await deps.labels.visibleByTitles(projectId, [...titles]);
    details.set(projectId, new Map(labels.map((label) => [label.title, label])));
  }
  return details;
}

/** Sees each project once per request: whether the caller may read its merge requests. */
function visibleProjects(deps: MergeRequestsRouteDeps, caller: Caller) {
  const seen = projectsSeenBy(deps.access, caller);
  return async (projectId: number): Promise<ViewedProject | undefined> => {
    const project = await seen(String(projectId));
    return project && mayReadCode(project) ? project : undefined;
  };
}

/** A page of a list across the projects the caller may see (`/merge_requests`, `/groups/:id/merge_requests`). */
export function acrossProjectsPage(options: {
  deps: MergeRequestsRouteDeps;
  caller: Caller;
  input: ListInput;
  filter: MergeRequestFilter;
}) {
  const { deps, caller } = options;
  return listPage({
    ...options,
    window: pageParams(options.input),
    projectOf: visibleProjects(deps, caller),
    fromOwnProject: false,
    acrossProjects: true,
  });
}
