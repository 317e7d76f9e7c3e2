import { z } from 'zod';
import { ForbiddenError, InputError } from '@platform/errors';
import { baseUrlOf, dateParam, params, routesOf } from '@platform/http';
import { requireProjectAccess } from '@platform/identity-client';
import type { Presence } from '../core/label-filter.ts';
import { labelsPresence } from '../core/label-filter.ts';
import { codeReaders } from '../repositories/repository-access.ts';
import { mayManageIssues, planningProject } from '../core/issue-access.ts';
import { confidentialViewer, viewsOf, visibleIssue, type IssuesRouteDeps } from './issue-route-support.ts';
import type { IssueFilter } from './issues-store.ts';

const route = routesOf<IssuesRouteDeps>('review');

const iidParam = () => params.integer().pipe(z.number().int().positive());
const labelList = () => params.stringList(100);
/** `YYYY-MM-DD`, or null / empty to clear it. */
const optionalDate = () => z.union([dateParam(), z.null(), z.literal('').transform(() => null)]).optional();
/** 0 or null removes the milestone, as GitLab takes it. */
const milestoneIdParam = () => z.union([params.integer(), z.null(), z.literal('').transform(() => null)]).optional();

/** `None`, `Any` or an integer id. */
const presenceOfId = () =>
  z.union([params.integer(), z.string().regex(/^(none|any)$/i)]).transform((value): Presence<number> => {
    if (typeof value === 'number') return { kind: 'is', value };
    return value.toLowerCase() === 'none' ? { kind: 'none' } : { kind: 'any' };
  });

const UPDATE_FIELDS =
  'title, description, state_event, confidential, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, assignee_ids, assignee_id are missing, at least one parameter must be provided';

export const issuesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/issues',
    access: 'anonymous',
    scope: 'read_api',
    order: { by: ['created_at', 'updated_at', 'title', 'due_date'], default: 'created_at', sort: 'desc' },
    input: z.object({
      id: params.idOrPath(),
      iids: params.integerList(100).optional(),
      state: z.enum(['opened', 'closed', 'all']).default('all'),
      labels: z.string().max(1024).optional(),
      with_labels_details: params.boolean().default(false),
      milestone: z.string().max(255).optional(),
      scope: z.enum(['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me']).default('all'),
      author_id: params.integer().optional(),
      assignee_id: presenceOfId().optional(),
      search: z.string().max(255).optional(),
      in: z
        .string()
        .regex(/^(title|description)(,(title|description))?$/)
        .optional(),
      created_after: params.datetime().optional(),
      created_before: params.datetime().optional(),
      updated_after: params.datetime().optional(),
      updated_before: params.datetime().optional(),
      not: z.object({ labels: z.string().max(1024).optional(), milestone: z.string().max(255).optional() }).optional(),
    }),
    handle: async ({ caller, input, deps, window, order, request }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const filter: IssueFilter = { projectId: project.id };
      if (input.iids) filter.iids = input.iids;
      if (input.state !== 'all') filter.state = input.state;
      const labels = labelsPresence(input.labels);
      if (labels) filter.labels = labels;
      const notLabels = labelsPresence(input.not?.labels);
      if (notLabels?.kind === 'is') filter.notLabels = notLabels.value;
      const milestoneIdOf = async (title: string) => (await deps.milestones.byTitle(project.id, title))?.id ?? 0;
      if (input.milestone !== undefined) {
        if (/^none$/i.test(input.milestone)) filter.milestone = { kind: 'none' };
        else if (/^any$/i.test(input.milestone)) filter.milestone = { kind: 'any' };
        else filter.milestone = { kind: 'is', value: await milestoneIdOf(input.milestone) };
      }
      const scope = input.scope.replaceAll('-', '_');
      if (scope !== 'all' && caller.kind === 'user') {
        if (scope === 'created_by_me') filter.authorId = caller.userId;
        else filter.assignee = { kind: 'is', value: caller.userId };
      }
      if (input.author_id !== undefined) filter.authorId = input.author_id;
      if (input.assignee_id !== undefined) filter.assignee = input.assignee_id;
      if (input.search) {
        const fields = (input.in ?? 'title,description').split(',');
        filter.search = { text: input.search, inTitle: fields.includes('title'), inDescription: fields.includes('description') };
      }
      if (input.created_after) filter.createdAfter = input.created_after;
      if (input.created_before) filter.createdBefore = input.created_before;
      if (input.updated_after) filter.updatedAfter = input.updated_after;
      if (input.updated_before) filter.updatedBefore = input.updated_before;
      if (input.not?.milestone !== undefined) filter.notMilestoneId = await milestoneIdOf(input.not.milestone);
      const viewer = confidentialViewer(project, caller);
      if (viewer !== undefined) filter.confidentialVisibleTo = viewer;
      const { items, total } = await deps.issues.list({ filter, order: { by: order.by, direction: order.sort }, ...window });
      const options = { project, caller, baseUrl: baseUrlOf(request), withLabelsDetails: input.with_labels_details };
      return { items: await viewsOf(deps, options, items), total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/issues/:issue_iid',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), issue_iid: iidParam() }),
    handle: async ({ caller, input, deps, request }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const issue = await visibleIssue(deps, project, caller, input.issue_iid);
      const [view] = await viewsOf(deps, { project, caller, baseUrl: baseUrlOf(request) }, [issue]);
      return view;
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/issues',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      title: z.string().min(1).max(255),
      description: z.string().max(1_048_576).optional(),
      confidential: params.boolean().default(false),
      labels: labelList().optional(),
      milestone_id: milestoneIdParam(),
      assignee_id: params.integer().optional(),
      assignee_ids: params.integerList(100).optional(),
      due_date: optionalDate(),
    }),
    handle: async ({ caller, input, deps, request }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      await deps.checkCreationRate(caller);
      const userAgent = request.get('user-agent');
      const created = await deps.issues.create(
        project.id,
        caller,
        {
          title: input.title,
          description: input.description ?? '',
          confidential: input.confidential,
          dueDate: input.due_date ?? null,
          labels: input.labels,
          milestoneId: input.milestone_id,
          assigneeIds: input.assignee_ids ?? (input.assignee_id ? [input.assignee_id] : []),
          origin: userAgent ? { userAgent, ipAddress: caller.ip ?? '' } : undefined,
        },
        mayManageIssues(project),
      );
      const [view] = await viewsOf(deps, { project, caller, baseUrl: baseUrlOf(request) }, [created]);
      return view;
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/issues/:issue_iid',
    access: 'user',
    scope: 'api',
    input: z.object({
      id: params.idOrPath(),
      issue_iid: iidParam(),
      title: z.string().min(1).max(255).optional(),
      description: z.string().max(1_048_576).optional(),
      state_event: z.enum(['close', 'reopen']).optional(),
      confidential: params.boolean().optional(),
      discussion_locked: params.boolean().optional(),
      due_date: optionalDate(),
      labels: labelList().optional(),
      add_labels: labelList().optional(),
      remove_labels: labelList().optional(),
      milestone_id: milestoneIdParam(),
      assignee_ids: params.integerList(100).optional(),
      assignee_id: params.integer().optional(),
    }),
    handle: async ({ caller, input, deps, request }) => {
      const { id: _id, issue_iid: iid, ...given } = input;
      if (Object.values(given).every((value) => value === undefined)) throw new InputError(UPDATE_FIELDS);
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const existing = await visibleIssue(deps, project, caller, iid);
      // Reporters and above edit any issue; below that, only their authors (GitLab's `update_issue`).
      const triage = mayManageIssues(project);
      if (!triage && existing.authorId !== caller.userId) throw new ForbiddenError();
      const assigneeIds =
        input.assignee_ids ?? (input.assignee_id === undefined ? undefined : input.assignee_id === 0 ? [] : [input.assignee_id]);
      const updated = await deps.issues.update(
        project.id,
        caller,
        iid,
        {
          title: input.title,
          description: input.description,
          stateEvent: input.state_event,
          confidential: input.confidential,
          discussionLocked: input.discussion_locked,
          dueDate: input.due_date,
          labels: input.labels,
          addLabels: input.add_labels,
          removeLabels: input.remove_labels,
          milestoneId: input.milestone_id,
          assigneeIds,
        },
        triage,
      );
      const [view] = await viewsOf(deps, { project, caller, baseUrl: baseUrlOf(request) }, [updated]);
      return view;
    },
  }),
  route.list({
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/closes_issues',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), merge_request_iid: iidParam() }),
    handle: async ({ caller, input, deps, window, request }) => {
      const project = await requireProjectAccess({ access: deps.access, caller, idOrPath: input.id, ...codeReaders() });
      const mergeRequest = await deps.mergeRequests.get(project.id, input.merge_request_iid);
      const viewer = confidentialViewer(project, caller);
      // Those of its own project, in iid order.
      const closing = (await deps.closingIssues.issues(mergeRequest.id)).filter((issue) => issue.projectId === project.id);
      const issues = closing
        .sort((a, b) => a.iid - b.iid)
        .filter(
          (issue) => !issue.confidential || viewer === undefined || issue.authorId === viewer || issue.assigneeIds.includes(viewer ?? 0),
        );
      const page = issues.slice(window.offset, window.offset + window.limit);
      return { items: await viewsOf(deps, { project, caller, baseUrl: baseUrlOf(request) }, page), total: issues.length };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/issues/:issue_iid/participants',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), issue_iid: iidParam() }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const issue = await visibleIssue(deps, project, caller, input.issue_iid);
      // Its author and assignees, in that order, each once.
      const ids = [...new Set([issue.authorId, ...issue.assigneeIds])];
      const users = await deps.users.users(ids, caller);
      return ids.flatMap((id) => {
        const user = users.get(id);
        return user ? [user] : [];
      });
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/issues/:issue_iid/user_agent_detail',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), issue_iid: iidParam() }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const detail = await deps.issues.userAgentDetail(await deps.issues.get(project.id, input.issue_iid));
      return { user_agent: detail.userAgent, ip_address: detail.ipAddress, akismet_submitted: detail.submitted };
    },
  }),
];
