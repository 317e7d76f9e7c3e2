import { z } from 'zod';
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import { ForbiddenError, InputError, NotFoundError } from '@platform/errors';
import { HttpStatusError, pageParams, pageShape, params, routesOf, type PageQuery, type PageRequest } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { commitView } from '../commits/commit-views.ts';
import type { LabelsService, ListedLabel } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { DEVELOPER, mayPushCode, mayReadCode } from '../repositories/repository-access.ts';
import type { MergeRequest } from './merge-request.entity.ts';
import {
  diffView,
  mergeRequestDetailView,
  mergeRequestView,
  simpleMergeRequestView,
  userIdsOf,
  versionDetailView,
  versionView,
  type ViewedProject,
} from './merge-request-views.ts';
import {
  isFromFork,
  MergeRequestRefusal,
  rebaseInProgress,
  type MergeRequestScope,
  type MergeRequestsService,
} from './merge-requests-service.ts';
import { inSameForkNetwork } from './fork-network.ts';
import type { MergeRequestFilter } from './merge-requests-store.ts';
import type { Presence } from '../core/label-filter.ts';
import { labelsPresence } from '../core/label-filter.ts';
import type { UserDirectory } from '../core/user-directory.ts';

/** The merge requests deployments shipped: the lists' `environment`, `deployed_after` and `deployed_before`. */
export interface DeployedMergeRequestIds {
  mergeRequestIds(filter: {
    environment?: string | undefined;
    deployedAfter?: Date | undefined;
    deployedBefore?: Date | undefined;
  }): Promise<number[]>;
}

export interface MergeRequestsRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
  mergeRequests: MergeRequestsService;
  users: UserDirectory;
  deployments: DeployedMergeRequestIds;
  labels: LabelsService;
  milestones: MilestonesService;
}

const route = routesOf<MergeRequestsRouteDeps>('review');
const OWNER = 50;

/** GitLab's own statuses and bodies for refusals the domain names (405, 406, 409, 422). */
async function answered<Result>(work: Promise<Result>): Promise<Result> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof MergeRequestRefusal) throw new HttpStatusError(error.status, error.message, error.body);
    throw error;
  }
}

/**
 * The project behind `:id` and its repository, when the caller may read merge requests there
 * (and do more, with `minimumLevel`): 404 when the project is invisible, 403 with too little access.
 */
async function scopeOf(
  deps: MergeRequestsRouteDeps,
  caller: Caller,
  idOrPath: string | number,
  minimumLevel = 0,
): Promise<MergeRequestScope> {
  const project = await deps.access.project({ idOrPath: String(idOrPath), caller });
  if (!mayReadCode(project)) throw new ForbiddenError();
  if (!project.isAdmin && project.accessLevel < minimumLevel) throw new ForbiddenError();
  return { project, repository: await deps.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId }) };
}

/** The commits and file diffs of a merge request's newest diff version (none before its first). */
async function latestContents(deps: MergeRequestsRouteDeps, scope: MergeRequestScope, mergeRequest: MergeRequest) {
  const latest = await deps.mergeRequests.latestVersion(mergeRequest);
  return latest ? deps.mergeRequests.versionContents(scope.repository, latest) : { commits: [], diffs: [] };
}

/** The page the request asks for of a list computed whole (from git), with its total. */
function pageOfList<Item, View>(input: PageQuery, items: Item[], view: (item: Item) => View) {
  const window = pageParams(input);
  return { window, items: items.slice(window.offset, window.offset + window.perPage).map(view), total: items.length };
}

/**
 * Where a new merge request goes: the source project itself, or (`target_project_id`) another
 * project of its fork network the caller may read, as GitLab's `create_merge_request_in`: 404 for
 * a project the caller cannot see, 403 without read access to its code, 422 outside the network.
 */
async function targetScopeOf(deps: MergeRequestsRouteDeps, caller: Caller, source: MergeRequestScope, targetProjectId: number | undefined) {
  if (targetProjectId === undefined || targetProjectId === source.project.id) return source;
  const project = await deps.access.project({ idOrPath: String(targetProjectId), caller });
  if (!mayReadCode(project)) throw new ForbiddenError();
  if (!(await inSameForkNetwork(deps.access, source.project, project))) {
    throw new HttpStatusError(422, 'Source project is not a fork of the target project', {
      message: ['Source project is not a fork of the target project'],
    });
  }
  return { project, repository: await deps.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId }) };
}

/** Whether the caller may push to a project's branches (a fork a merge request's source is in); false when it is gone or unseen. */
async function mayPushTo(deps: MergeRequestsRouteDeps, caller: Caller, projectId: number): Promise<boolean> {
  return deps.access.project({ idOrPath: String(projectId), caller }).then(mayPushCode, (error: unknown) => {
    if (error instanceof NotFoundError) return false;
    throw error;
  });
}

const iidParam = () => params.integer().pipe(z.number().int().positive());

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
    if (/^none$/i.test(reaction)) filter.notIds = await deps.mergeRequests.reactedTo({ userId: caller.userId });
    else filter.ids = await deps.mergeRequests.reactedTo({ userId: caller.userId, name: /^any$/i.test(reaction) ? undefined : reaction });
  }
  if (input.not?.my_reaction_emoji !== undefined)
    filter.notIds = [
      ...(filter.notIds ?? []),
      ...(await deps.mergeRequests.reactedTo({ userId: caller.userId, name: input.not.my_reaction_emoji })),
    ];
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
  caller: AuthenticatedCaller;
  input: ListInput;
  filter: MergeRequestFilter;
  window: PageRequest;
  /** The projects the merge requests belong to, as the caller sees them; undefined for one the caller may not see. */
  projectOf: (projectId: number) => Promise<ViewedProject | undefined>;
  fromOwnProject: boolean;
  /** Lists across projects keep only what the caller may see, page by page over the visible ones. */
  acrossProjects: boolean;
}) {
  const { deps, input, window } = options;
  const order = { by: input.order_by, direction: input.sort };
  let items: MergeRequest[];
  let total: number;
  if (options.acrossProjects) {
    const all = (await deps.mergeRequests.list({ filter: options.filter, order, offset: 0, limit: 100_000 })).items;
    const visible: MergeRequest[] = [];
    for (const mergeRequest of all) if (await options.projectOf(mergeRequest.projectId)) visible.push(mergeRequest);
    total = visible.length;
    items = visible.slice(window.offset, window.offset + window.perPage);
  } else {
    ({ items, total } = await deps.mergeRequests.list({ filter: options.filter, order, offset: window.offset, limit: window.perPage }));
  }
  const simple = input.view === 'simple';
  const [users, facts] = await Promise.all([
    simple ? new Map() : deps.users.users(userIdsOf(items), options.caller),
    simple ? new Map() : deps.mergeRequests.facts(items, options.caller.userId),
  ]);
  const labelDetails = input.with_labels_details && !simple ? await labelDetailsOf(deps, items) : undefined;
  const views = [];
  for (const mergeRequest of items) {
    const project = await options.projectOf(mergeRequest.projectId);
    if (!project) continue;
    const context = {
      project,
      users,
      fromOwnProject: options.fromOwnProject,
      facts,
      labelDetails: labelDetails?.get(mergeRequest.projectId),
    };
    views.push(input.view === 'simple' ? simpleMergeRequestView(mergeRequest, context) : mergeRequestView(mergeRequest, context));
  }
  return { items: views, total };
}

/** The labels `mergeRequests` carry, by project and title: `with_labels_details=true` shows them as objects. */
async function labelDetailsOf(deps: MergeRequestsRouteDeps, mergeRequests: MergeRequest[]): Promise<Map<number, Map<string, ListedLabel>>> {
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
  const seen = new Map<number, Promise<ViewedProject | undefined>>();
  return (projectId: number) => {
    let found = seen.get(projectId);
    if (!found) {
      found = deps.access
        .project({ idOrPath: String(projectId), caller })
        .then((project) => (mayReadCode(project) ? project : undefined))
        .catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
      seen.set(projectId, found);
    }
    return found;
  };
}

/** A page of a list across the projects the caller may see (`/merge_requests`, `/groups/:id/merge_requests`). */
function acrossProjectsPage(options: {
  deps: MergeRequestsRouteDeps;
  caller: AuthenticatedCaller;
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

/** One merge request as its single views show it (`merge_request.json`), for the caller. */
export async function detail(
  deps: MergeRequestsRouteDeps,
  caller: Caller,
  scope: MergeRequestScope,
  mergeRequest: MergeRequest,
  options: { divergedCommitsCount?: boolean; fromOwnProject?: boolean } = {},
) {
  const [users, latest, approved, facts] = await Promise.all([
    deps.users.users(userIdsOf([mergeRequest]), caller),
    deps.mergeRequests.latestVersion(mergeRequest),
    deps.mergeRequests.isApproved(mergeRequest),
    deps.mergeRequests.facts([mergeRequest], caller.kind === 'user' ? caller.userId : null),
  ]);
  const divergedCommitsCount = options.divergedCommitsCount
    ? await deps.mergeRequests.divergedCommitsCount(scope.repository, mergeRequest)
    : undefined;
  return mergeRequestDetailView(mergeRequest, {
    project: scope.project,
    users,
    fromOwnProject: options.fromOwnProject ?? true,
    latest,
    facts,
    divergedCommitsCount,
    approved,
  });
}

const userIds = () => params.integerList(100);
/** 0 or null: no milestone, as GitLab takes it. */
const milestoneIdParam = () => z.union([params.integer(), z.null(), z.literal('').transform(() => null)]);
/** GitLab's deprecated per-merge-request approvals count. */
const approvalsBeforeMerge = () => params.integer().pipe(z.number().int().min(0).max(100));
const labelList = () => params.stringList(100);
const perMergeRequest = { id: params.idOrPath(), merge_request_iid: iidParam() };

export const mergeRequestsRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      source_branch: z.string().min(1).max(1024),
      target_branch: z.string().min(1).max(1024),
      title: z.string().min(1).max(255),
      description: z.string().max(1_048_576).optional(),
      assignee_id: params.integer().optional(),
      assignee_ids: userIds().optional(),
      reviewer_ids: userIds().optional(),
      labels: labelList().optional(),
      milestone_id: milestoneIdParam().optional(),
      remove_source_branch: params.boolean().default(false),
      squash: params.boolean().default(false),
      allow_collaboration: params.boolean().default(false),
      allow_maintainer_to_push: params.boolean().optional(),
      target_project_id: params.integer().optional(),
      approvals_before_merge: approvalsBeforeMerge().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      // GitLab's `create_merge_request_from`: developers of the source project (a fork's, for a fork).
      const source = await scopeOf(deps, caller, input.id, DEVELOPER);
      const scope = await targetScopeOf(deps, caller, source, input.target_project_id);
      // The merge request's milestone and labels are the target project's.
      const milestoneId = (await deps.milestones.given(scope.project.id, input.milestone_id)) ?? null;
      // Titles the project lacks become its labels, as GitLab creates them.
      const labels = await deps.labels.ensure(scope.project.id, caller, input.labels ?? []);
      const created = await answered(
        deps.mergeRequests.create(scope, caller, {
          targetNamespaceIds: await deps.users.namespaceIdsOf(scope.project.id),
          sourceRepository: source.repository,
          sourceBranch: input.source_branch,
          targetBranch: input.target_branch,
          title: input.title,
          description: input.description ?? '',
          assigneeIds: input.assignee_ids ?? (input.assignee_id === undefined || input.assignee_id === 0 ? [] : [input.assignee_id]),
          reviewerIds: input.reviewer_ids ?? [],
          labels,
          milestoneId,
          removeSourceBranch: input.remove_source_branch,
          squash: input.squash,
          allowCollaboration: input.allow_collaboration || (input.allow_maintainer_to_push ?? false),
          approvalsBeforeMerge: input.approvals_before_merge,
        }),
      );
      // Shown as from the project the request was made to: a fork's reference to its upstream is not relative.
      return detail(deps, caller, scope, created, { fromOwnProject: scope === source });
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), iids: params.integerList(100).optional(), ...listShape }),
    handle: async ({ caller, input, deps, page }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const filter = await filterOf(deps, caller, input, 'all');
      filter.projectIds = [scope.project.id];
      if (input.iids) filter.iids = filter.iids ? filter.iids.filter((iid) => input.iids?.includes(iid)) : input.iids;
      const window = pageParams(input);
      const result = await listPage({
        deps,
        caller,
        input,
        filter,
        window,
        projectOf: async () => scope.project,
        fromOwnProject: true,
        acrossProjects: false,
      });
      if (input.with_merge_status_recheck) {
        const { items } = await deps.mergeRequests.list({
          filter,
          order: { by: input.order_by, direction: input.sort },
          offset: window.offset,
          limit: window.perPage,
        });
        deps.mergeRequests.recheckLater(scope, items);
      }
      return page(window, result);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object(listShape),
    handle: async ({ caller, input, deps, page }) => {
      const filter = await filterOf(deps, caller, input, 'created_by_me');
      return page(pageParams(input), await acrossProjectsPage({ deps, caller, input, filter }));
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/groups/:id/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), non_archived: params.boolean().default(true), ...listShape }),
    handle: async ({ caller, input, deps, page }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const filter = await filterOf(deps, caller, input, 'all');
      filter.groupId = groupId;
      return page(pageParams(input), await acrossProjectsPage({ deps, caller, input, filter }));
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid',
    access: 'user',
    scope: 'read_api',
    input: z.object({
      ...perMergeRequest,
      include_diverged_commits_count: params.boolean().default(false),
      include_rebase_in_progress: params.boolean().default(false),
    }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.getChecked(scope, input.merge_request_iid);
      const view = await detail(deps, caller, scope, mergeRequest, { divergedCommitsCount: input.include_diverged_commits_count });
      return input.include_rebase_in_progress ? { ...view, rebase_in_progress: rebaseInProgress(mergeRequest) } : view;
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid',
    access: 'user',
    scope: 'api',
    input: z.object({
      ...perMergeRequest,
      title: z.string().min(1).max(255).optional(),
      description: z.string().max(1_048_576).optional(),
      target_branch: z.string().min(1).max(1024).optional(),
      state_event: z.enum(['close', 'reopen']).optional(),
      assignee_id: params.integer().optional(),
      assignee_ids: userIds().optional(),
      reviewer_ids: userIds().optional(),
      labels: labelList().optional(),
      add_labels: labelList().optional(),
      remove_labels: labelList().optional(),
      remove_source_branch: params.boolean().optional(),
      squash: params.boolean().optional(),
      discussion_locked: params.boolean().optional(),
      allow_collaboration: params.boolean().optional(),
      milestone_id: milestoneIdParam().optional(),
      approvals_before_merge: approvalsBeforeMerge().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      // Developers edit merge requests; below that, only their authors do.
      if (!scope.project.isAdmin && scope.project.accessLevel < DEVELOPER) {
        const existing = await deps.mergeRequests.find(scope.project.id, input.merge_request_iid);
        if (existing?.authorId !== caller.userId) throw new ForbiddenError();
      }
      const { id: _id, merge_request_iid: _iid, ...given } = input;
      if (Object.values(given).every((value) => value === undefined))
        throw new InputError(
          'title, description, target_branch, state_event, assignee_id, assignee_ids, reviewer_ids, labels, add_labels, remove_labels, milestone_id, remove_source_branch, squash, discussion_locked, allow_collaboration are missing, at least one parameter must be provided',
        );
      // An unknown merge request is 404 before any label is created for it.
      await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const milestoneId = await deps.milestones.given(scope.project.id, input.milestone_id);
      const ensured = async (titles: string[] | undefined) =>
        titles === undefined ? undefined : deps.labels.ensure(scope.project.id, caller, titles);
      const assigneeIds =
        input.assignee_ids ?? (input.assignee_id === undefined ? undefined : input.assignee_id === 0 ? [] : [input.assignee_id]);
      const updated = await answered(
        deps.mergeRequests.update(scope, caller, input.merge_request_iid, {
          title: input.title,
          description: input.description,
          targetBranch: input.target_branch,
          stateEvent: input.state_event,
          assigneeIds,
          reviewerIds: input.reviewer_ids,
          labels: await ensured(input.labels),
          addLabels: await ensured(input.add_labels),
          removeLabels: input.remove_labels,
          milestoneId,
          removeSourceBranch: input.remove_source_branch,
          squash: input.squash,
          discussionLocked: input.discussion_locked,
          allowCollaboration: input.allow_collaboration,
          approvalsBeforeMerge: input.approvals_before_merge,
        }),
      );
      return detail(deps, caller, scope, updated);
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id, OWNER);
      await deps.mergeRequests.delete(scope.project.id, input.merge_request_iid);
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/merge',
    access: 'user',
    scope: 'api',
    input: z.object({
      ...perMergeRequest,
      sha: z.string().max(64).optional(),
      squash: params.boolean().optional(),
      should_remove_source_branch: params.boolean().optional(),
      merge_commit_message: z.string().min(1).max(65_536).optional(),
      squash_commit_message: z.string().min(1).max(65_536).optional(),
      merge_when_pipeline_succeeds: params.boolean().optional(),
      auto_merge: params.boolean().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id, DEVELOPER);
      const existing = await deps.mergeRequests.find(scope.project.id, input.merge_request_iid);
      const merged = await answered(
        deps.mergeRequests.merge(scope, caller, input.merge_request_iid, {
          sha: input.sha,
          mayPushToForkSource: existing && isFromFork(existing) ? await mayPushTo(deps, caller, existing.sourceProjectId) : false,
          squash: input.squash,
          shouldRemoveSourceBranch: input.should_remove_source_branch,
          mergeCommitMessage: input.merge_commit_message,
          squashCommitMessage: input.squash_commit_message,
        }),
      );
      return detail(deps, caller, scope, merged);
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/rebase',
    access: 'user',
    scope: 'api',
    status: 202,
    // No pipelines run here: `skip_ci` is accepted and has nothing to skip.
    input: z.object({ ...perMergeRequest, skip_ci: params.boolean().optional() }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      // Pushing takes a developer; the branch's own protection is weighed once the merge request is found.
      if (!scope.project.isAdmin && scope.project.accessLevel < DEVELOPER) throw new ForbiddenError('Cannot push to source branch');
      await answered(deps.mergeRequests.rebase(scope, caller, input.merge_request_iid));
      return { rebase_in_progress: true };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/changes',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.getChecked(scope, input.merge_request_iid);
      const view = await detail(deps, caller, scope, mergeRequest);
      const { diffs } = await latestContents(deps, scope, mergeRequest);
      return { ...view, changes: diffs.map(diffView), overflow: false };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/diffs',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, unidiff: params.boolean().default(false), ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const { diffs } = await latestContents(deps, scope, mergeRequest);
      const { window, ...listed } = pageOfList(input, diffs, diffView);
      return page(window, listed);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/commits',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const { commits } = await latestContents(deps, scope, mergeRequest);
      const { window, ...listed } = pageOfList(input, commits, (commit) => commitView(commit, scope.project));
      return page(window, listed);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/versions',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const { window, ...listed } = pageOfList(input, await deps.mergeRequests.versions(mergeRequest), versionView);
      return page(window, listed);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/versions/:version_id',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, version_id: iidParam() }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const version = await deps.mergeRequests.version(mergeRequest, input.version_id);
      return versionDetailView(version, await deps.mergeRequests.versionContents(scope.repository, version));
    },
  }),
];
