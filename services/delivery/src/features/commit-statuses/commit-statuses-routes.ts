import { FieldValidationError } from '@platform/errors';
import { baseUrlOf, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import { PIPELINE_READERS } from '../pipelines/pipeline-access.ts';
import type { CommitStatusesService } from './commit-statuses-service.ts';
import { COMMIT_STATUS_ORDERS } from './commit-statuses-read-model.ts';
import { commitStatusListQuery, postCommitStatusBody, TARGET_URL_SCHEMES } from './commit-statuses.schemas.ts';
import { commitStatusView, listedCommitStatus } from './commit-statuses-views.ts';

export interface CommitStatusesRouteDeps {
  access: IdentityAccess;
  statuses: CommitStatusesService;
}

const route = routesOf<CommitStatusesRouteDeps>('delivery');

/** An absolute http or https address, or GitLab's refusal of the field. */
function checkedTargetUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const scheme = URL.canParse(value) ? new URL(value).protocol : null;
  if (scheme === null || !TARGET_URL_SCHEMES.includes(scheme)) {
    throw new FieldValidationError({ target_url: ['is blocked: Only allowed schemes are http, https'] });
  }
  return value;
}

/** GitLab's commit status API: external CI systems post the state of their jobs; reporters read them. */
export const commitStatusesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/repository/commits/:sha/statuses',
    access: 'user',
    scope: 'read_api',
    input: commitStatusListQuery,
    order: { by: COMMIT_STATUS_ORDERS, default: 'id', sort: 'asc' },
    handle: async ({ caller, input, deps, window, order, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...PIPELINE_READERS });
      const page = await deps.statuses.list(project, {
        caller,
        sha: input.sha,
        filter: { ref: input.ref, stage: input.stage, name: input.name, pipelineId: input.pipeline_id, all: input.all ?? false },
        order,
        window,
      });
      const baseUrl = baseUrlOf(request);
      return { ...page, items: page.items.map((status) => commitStatusView(status, { baseUrl })) };
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/statuses/:sha',
    access: 'user',
    scope: 'api',
    status: 201,
    input: postCommitStatusBody,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      const status = await deps.statuses.post(project, caller, {
        sha: input.sha,
        state: input.state,
        ref: input.ref,
        name: input.name ?? input.context,
        targetUrl: checkedTargetUrl(input.target_url),
        description: input.description,
        coverage: input.coverage,
        pipelineId: input.pipeline_id,
      });
      return commitStatusView(listedCommitStatus(status), { baseUrl: baseUrlOf(request) });
    },
  }),
];
