import { z } from 'zod';
import type { AuthenticatedCaller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import { params, reply, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { mayReadCode } from '../repositories/repository-access.ts';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import { readableMergeRequest } from '../merge-requests/merge-request-lookup.ts';
import { mergeRequestView, userIdsOf, withFacts, type ViewedProject } from '../merge-requests/merge-request-views.ts';
import { NO_FACTS } from '../merge-requests/merge-request-facts.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { FactsOf } from '../merge-requests/merge-request-facts.ts';
import type { ProjectNames, UserDirectory } from '../core/user-directory.ts';
import { TODO_ACTIONS, type Todo } from './todo.entity.ts';
import type { TodosService } from './todos-service.ts';

export interface TodosRouteDeps {
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  /** What merge request views show besides the merge request. */
  facts: FactsOf;
  todos: TodosService;
  users: UserDirectory;
}

const route = routesOf<TodosRouteDeps>('review');
const positive = () => params.integer().pipe(z.number().int().positive());

/** The kinds of targets GitLab's `type` filter names; only merge requests have to-dos here. */
const TARGET_TYPES = [
  'Issue',
  'MergeRequest',
  'Commit',
  'Epic',
  'DesignManagement::Design',
  'AlertManagement::Alert',
  'Project',
  'Namespace',
  'Key',
  'WikiPage::Meta',
] as const;

/** The to-dos as GitLab shows them, each with its merge request; those of projects the caller no longer sees are left out. */
async function todoViews(deps: TodosRouteDeps, caller: AuthenticatedCaller, todos: Todo[]) {
  const ids = [...new Set(todos.map((todo) => todo.targetId))];
  const { items } = ids.length
    ? await deps.mergeRequests.list({ filter: { ids }, order: { by: 'created_at', direction: 'desc' }, offset: 0, limit: ids.length })
    : { items: [] as MergeRequest[] };
  const byId = new Map(items.map((mergeRequest) => [mergeRequest.id, mergeRequest]));
  const [users, facts] = await Promise.all([
    deps.users.users([...userIdsOf(items), ...todos.map((todo) => todo.authorId)], caller),
    deps.facts(items, caller.userId),
  ]);
  const projects = new Map<number, { viewed: ViewedProject; names: ProjectNames } | null>();
  const projectOf = async (projectId: number) => {
    if (!projects.has(projectId)) {
      const viewed = await deps.access.project({ idOrPath: String(projectId), caller }).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      projects.set(projectId, viewed && mayReadCode(viewed) ? { viewed, names: await deps.users.projectNames(projectId) } : null);
    }
    return projects.get(projectId) ?? null;
  };
  const views = [];
  for (const todo of todos) {
    const mergeRequest = byId.get(todo.targetId);
    const project = await projectOf(todo.projectId);
    if (!mergeRequest || !project) continue;
    const target = mergeRequestView(withFacts(mergeRequest, facts.get(mergeRequest.id) ?? NO_FACTS), {
      project: project.viewed,
      users,
      fromOwnProject: false,
    });
    views.push({
      id: todo.id,
      project: project.names,
      author: users.get(todo.authorId) ?? null,
      action_name: todo.action,
      target_type: todo.targetType,
      target,
      target_url: target.web_url,
      body: mergeRequest.title,
      state: todo.state,
      created_at: todo.createdAt.toISOString(),
      updated_at: todo.updatedAt.toISOString(),
    });
  }
  return views;
}

export const todosRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/todo',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ id: params.idOrPath(), merge_request_iid: positive() }),
    handle: async ({ caller, input, deps }) => {
      const { mergeRequest } = await readableMergeRequest(deps, caller, input);
      const todo = await deps.todos.mark(mergeRequest, caller.userId);
      if (!todo) return reply({ status: 304 });
      return (await todoViews(deps, caller, [todo]))[0];
    },
  }),
  route.list({
    path: '/api/v4/todos',
    access: 'user',
    scope: 'read_api',
    input: z.object({
      action: z.enum(TODO_ACTIONS).optional(),
      author_id: params.integer().optional(),
      project_id: params.integer().optional(),
      state: z.enum(['pending', 'done']).default('pending'),
      type: z.enum(TARGET_TYPES).optional(),
    }),
    handle: async ({ caller, input, deps, window }) => {
      const todos = await deps.todos.list({
        userId: caller.userId,
        state: input.state,
        action: input.action,
        authorId: input.author_id,
        projectId: input.project_id,
        targetType: input.type,
      });
      const views = await todoViews(deps, caller, todos);
      return { items: views.slice(window.offset, window.offset + window.limit), total: views.length };
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/todos/:id/mark_as_done',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ id: positive() }),
    handle: async ({ caller, input, deps }) => {
      const done = await deps.todos.markDone(caller.userId, input.id);
      const [view] = await todoViews(deps, caller, [done]);
      if (!view) throw new NotFoundError('Todo');
      return view;
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/todos/mark_as_done',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({}),
    handle: async ({ caller, deps }) => {
      await deps.todos.markAllDone(caller.userId);
    },
  }),
];
