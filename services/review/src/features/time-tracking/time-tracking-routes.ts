import { z } from 'zod';
import type { AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import { codeReaders } from '../repositories/repository-access.ts';
import { readableMergeRequest } from '../merge-requests/merge-request-lookup.ts';
import { parseHumanDuration } from '../core/merge-request-text.ts';
import { timeStatsView } from '../merge-requests/merge-request-views.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';

export interface TimeTrackingRouteDeps {
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
}

const route = routesOf<TimeTrackingRouteDeps>('review');
const perMergeRequest = { id: params.idOrPath(), merge_request_iid: params.integer().pipe(z.number().int().positive()) };
const withDuration = z.object({ ...perMergeRequest, duration: z.string().max(255) });

/** The merge request, when the caller may change it as GitLab's `admin_merge_request` allows: developers and above. */
async function trackedMergeRequest(
  deps: TimeTrackingRouteDeps,
  caller: AuthenticatedCaller,
  input: { id: string | number; merge_request_iid: number },
) {
  // Too little access is refused before the merge request is looked up, as GitLab authorizes first.
  const project = await requireProjectAccess({ access: deps.access, caller, idOrPath: input.id, ...codeReaders(ACCESS_LEVEL.DEVELOPER) });
  return deps.mergeRequests.get(project.id, input.merge_request_iid);
}

/** Seconds of a human duration, or GitLab's validation error naming `field`. */
function durationOf(text: string, field: 'time_estimate' | 'time_spent', options: { negative: boolean }): number {
  const seconds = parseHumanDuration(text);
  if (seconds === undefined || (seconds < 0 && !options.negative)) throw new FieldValidationError({ [field]: ['has an invalid format'] });
  return seconds;
}

const path = (action: string) => `/api/v4/projects/:id/merge_requests/:merge_request_iid/${action}`;

export const timeTrackingRoutes = [
  route({
    method: 'POST',
    path: path('time_estimate'),
    access: 'user',
    scope: 'api',
    input: withDuration,
    handle: async ({ caller, input, deps }) => {
      const mergeRequest = await trackedMergeRequest(deps, caller, input);
      const seconds = durationOf(input.duration, 'time_estimate', { negative: false });
      return timeStatsView(await deps.mergeRequests.setTimeEstimate(mergeRequest, caller, seconds));
    },
  }),
  route({
    method: 'POST',
    path: path('reset_time_estimate'),
    access: 'user',
    scope: 'api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const mergeRequest = await trackedMergeRequest(deps, caller, input);
      return timeStatsView(await deps.mergeRequests.setTimeEstimate(mergeRequest, caller, 0));
    },
  }),
  route({
    method: 'POST',
    path: path('add_spent_time'),
    access: 'user',
    scope: 'api',
    status: 201,
    input: withDuration,
    handle: async ({ caller, input, deps }) => {
      const mergeRequest = await trackedMergeRequest(deps, caller, input);
      const seconds = durationOf(input.duration, 'time_spent', { negative: true });
      return timeStatsView(await deps.mergeRequests.spendTime(mergeRequest, caller, seconds));
    },
  }),
  route({
    method: 'POST',
    path: path('reset_spent_time'),
    access: 'user',
    scope: 'api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const mergeRequest = await trackedMergeRequest(deps, caller, input);
      return timeStatsView(await deps.mergeRequests.spendTime(mergeRequest, caller, 'reset'));
    },
  }),
  route({
    method: 'GET',
    path: path('time_stats'),
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => timeStatsView((await readableMergeRequest(deps, caller, input)).mergeRequest),
  }),
];
