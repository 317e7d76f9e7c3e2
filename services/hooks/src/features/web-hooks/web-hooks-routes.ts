import type { Caller } from '@platform/auth';
import { UnprocessableError } from '@platform/errors';
import { reply, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { HookOwner } from '../core/hook-store.ts';
import type { WebHookLog } from '../core/web-hook.entity.ts';
import type { WebHooksService } from './web-hooks-service.ts';
import { groupHookView, hookLogView, projectHookView, systemHookView } from './web-hooks-views.ts';
import {
  createGroupHookInput,
  createProjectHookInput,
  createSystemHookInput,
  groupHookEventsInput,
  groupHookParams,
  groupHookResendInput,
  groupParams,
  projectHookEventsInput,
  projectHookParams,
  projectHookResendInput,
  projectParams,
  systemHookParams,
  testGroupHookInput,
  testProjectHookInput,
  updateGroupHookInput,
  updateProjectHookInput,
  updateSystemHookInput,
} from './web-hooks.schemas.ts';

/** Sample data for `POST .../hooks/:hook_id/test/:trigger`, as GitLab's test services build it. */
export interface TestSamples {
  /** UnprocessableError (GitLab's wording) when the project has nothing to show for the trigger. */
  sample(options: { trigger: string; projectId: number; caller: Caller }): Promise<{ hookName: string; data: Record<string, unknown> }>;
  /** The project a group hook's test describes: the group's first with commits; UnprocessableError when none has any. */
  groupProject(groupId: number): Promise<number>;
}

export interface WebHooksRouteDeps {
  access: IdentityAccess;
  hooks: WebHooksService;
  samples: TestSamples;
}

const route = routesOf<WebHooksRouteDeps>('hooks');

/** Maintainers manage a project's hooks (administrators any). */
async function projectOwner(
  deps: WebHooksRouteDeps,
  caller: Caller,
  idOrPath: string | number,
): Promise<HookOwner & { type: 'ProjectHook' }> {
  const project = await requireProjectAccess({ access: deps.access, caller, idOrPath, minimumLevel: ACCESS_LEVEL.MAINTAINER });
  return { type: 'ProjectHook', projectId: project.id };
}

/** Owners manage a group's hooks. */
async function groupOwner(deps: WebHooksRouteDeps, caller: Caller, idOrPath: string | number): Promise<HookOwner & { type: 'GroupHook' }> {
  const groupId = await deps.access.require({ resource: 'group', idOrPath: String(idOrPath), caller, minimumLevel: ACCESS_LEVEL.OWNER });
  return { type: 'GroupHook', groupId };
}

const SYSTEM: HookOwner = { type: 'SystemHook' };

/** A test's answer: 201 when the receiver answered 2xx, else 422 with what it said (or why it was not reached). */
function testOutcome(log: WebHookLog) {
  const status = Number(log.responseStatus);
  if (status >= 200 && status < 300) return reply({ status: 201, body: { message: '201 Created' } });
  throw new UnprocessableError(log.internalErrorMessage ?? log.responseBody);
}

export const webHooksRoutes = [
  route.list({
    path: '/api/v4/projects/:id/hooks',
    access: 'user',
    scope: 'read_api',
    input: projectParams,
    handle: async ({ caller, input, deps, window }) => {
      const page = await deps.hooks.list(await projectOwner(deps, caller, input.id), window);
      return { ...page, items: page.items.map((hook) => projectHookView(hook)) };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/hooks/:hook_id',
    access: 'user',
    scope: 'read_api',
    input: projectHookParams,
    handle: async ({ caller, input, deps }) =>
      projectHookView(await deps.hooks.get(await projectOwner(deps, caller, input.id), input.hook_id)),
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/hooks',
    access: 'user',
    scope: 'api',
    status: 201,
    input: createProjectHookInput,
    handle: async ({ caller, input, deps }) => projectHookView(await deps.hooks.create(await projectOwner(deps, caller, input.id), input)),
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/hooks/:hook_id',
    access: 'user',
    scope: 'api',
    input: updateProjectHookInput,
    handle: async ({ caller, input, deps }) =>
      projectHookView(await deps.hooks.update(await projectOwner(deps, caller, input.id), input.hook_id, input)),
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/hooks/:hook_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: projectHookParams,
    handle: async ({ caller, input, deps }) => deps.hooks.remove(await projectOwner(deps, caller, input.id), input.hook_id),
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/hooks/:hook_id/test/:trigger',
    access: 'user',
    scope: 'api',
    status: 201,
    input: testProjectHookInput,
    handle: async ({ caller, input, deps }) => {
      const owner = await projectOwner(deps, caller, input.id);
      await deps.hooks.get(owner, input.hook_id);
      const sample = await deps.samples.sample({ trigger: input.trigger, projectId: owner.projectId, caller });
      return testOutcome(await deps.hooks.test(owner, input.hook_id, sample.hookName, sample.data));
    },
  }),
  route.list({
    path: '/api/v4/projects/:id/hooks/:hook_id/events',
    access: 'user',
    scope: 'read_api',
    input: projectHookEventsInput,
    handle: async ({ caller, input, deps, window }) => {
      const page = await deps.hooks.events(await projectOwner(deps, caller, input.id), input.hook_id, input.status, window);
      return { ...page, items: page.items.map(hookLogView) };
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/hooks/:hook_id/events/:hook_log_id/resend',
    access: 'user',
    scope: 'api',
    status: 201,
    input: projectHookResendInput,
    handle: async ({ caller, input, deps }) => {
      const log = await deps.hooks.resend(await projectOwner(deps, caller, input.id), input.hook_id, input.hook_log_id);
      return { response_status: log.responseStatus };
    },
  }),

  route.list({
    path: '/api/v4/groups/:id/hooks',
    access: 'user',
    scope: 'read_api',
    input: groupParams,
    handle: async ({ caller, input, deps, window }) => {
      const page = await deps.hooks.list(await groupOwner(deps, caller, input.id), window);
      return { ...page, items: page.items.map((hook) => groupHookView(hook)) };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/groups/:id/hooks/:hook_id',
    access: 'user',
    scope: 'read_api',
    input: groupHookParams,
    handle: async ({ caller, input, deps }) => groupHookView(await deps.hooks.get(await groupOwner(deps, caller, input.id), input.hook_id)),
  }),
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/hooks',
    access: 'user',
    scope: 'api',
    status: 201,
    input: createGroupHookInput,
    handle: async ({ caller, input, deps }) => groupHookView(await deps.hooks.create(await groupOwner(deps, caller, input.id), input)),
  }),
  route({
    method: 'PUT',
    path: '/api/v4/groups/:id/hooks/:hook_id',
    access: 'user',
    scope: 'api',
    input: updateGroupHookInput,
    handle: async ({ caller, input, deps }) =>
      groupHookView(await deps.hooks.update(await groupOwner(deps, caller, input.id), input.hook_id, input)),
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id/hooks/:hook_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: groupHookParams,
    handle: async ({ caller, input, deps }) => deps.hooks.remove(await groupOwner(deps, caller, input.id), input.hook_id),
  }),
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/hooks/:hook_id/test/:trigger',
    access: 'user',
    scope: 'api',
    status: 201,
    input: testGroupHookInput,
    // GitLab tests a group hook with its group's first project that has commits.
    handle: async ({ caller, input, deps }) => {
      const owner = await groupOwner(deps, caller, input.id);
      await deps.hooks.get(owner, input.hook_id);
      const projectId = await deps.samples.groupProject(owner.groupId);
      const sample = await deps.samples.sample({ trigger: input.trigger, projectId, caller });
      return testOutcome(await deps.hooks.test(owner, input.hook_id, sample.hookName, sample.data));
    },
  }),
  route.list({
    path: '/api/v4/groups/:id/hooks/:hook_id/events',
    access: 'user',
    scope: 'read_api',
    input: groupHookEventsInput,
    handle: async ({ caller, input, deps, window }) => {
      const page = await deps.hooks.events(await groupOwner(deps, caller, input.id), input.hook_id, input.status, window);
      return { ...page, items: page.items.map(hookLogView) };
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/hooks/:hook_id/events/:hook_log_id/resend',
    access: 'user',
    scope: 'api',
    status: 201,
    input: groupHookResendInput,
    handle: async ({ caller, input, deps }) => {
      const log = await deps.hooks.resend(await groupOwner(deps, caller, input.id), input.hook_id, input.hook_log_id);
      return { response_status: log.responseStatus };
    },
  }),

  route.list({
    path: '/api/v4/hooks',
    access: 'administrator',
    scope: 'read_api',
    input: projectParams.omit({ id: true }),
    handle: async ({ deps, window }) => {
      const page = await deps.hooks.list(SYSTEM, window);
      return { ...page, items: page.items.map((hook) => systemHookView(hook)) };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/hooks/:hook_id',
    access: 'administrator',
    scope: 'read_api',
    input: systemHookParams,
    handle: async ({ input, deps }) => systemHookView(await deps.hooks.get(SYSTEM, input.hook_id)),
  }),
  route({
    method: 'POST',
    path: '/api/v4/hooks',
    access: 'administrator',
    scope: 'api',
    status: 201,
    input: createSystemHookInput,
    handle: async ({ input, deps }) => systemHookView(await deps.hooks.create(SYSTEM, input)),
  }),
  route({
    method: 'PUT',
    path: '/api/v4/hooks/:hook_id',
    access: 'administrator',
    scope: 'api',
    input: updateSystemHookInput,
    handle: async ({ input, deps }) => systemHookView(await deps.hooks.update(SYSTEM, input.hook_id, input)),
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/hooks/:hook_id',
    access: 'administrator',
    scope: 'api',
    status: 204,
    input: systemHookParams,
    handle: async ({ input, deps }) => deps.hooks.remove(SYSTEM, input.hook_id),
  }),
  route({
    method: 'POST',
    path: '/api/v4/hooks/:hook_id',
    access: 'administrator',
    scope: 'api',
    status: 201,
    input: systemHookParams,
    // GitLab's system hook test: a sample push event, answered with the data sent.
    handle: async ({ input, deps }) => {
      const data = {
        event_name: 'project_create',
        name: 'Ruby',
        path: 'ruby',
        project_id: 1,
        owner_name: 'Someone',
        owner_email: 'example@gitlabhq.com',
      };
      await deps.hooks.test(SYSTEM, input.hook_id, 'system_hooks', data);
      return data;
    },
  }),
];
