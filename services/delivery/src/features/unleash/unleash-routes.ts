import { UnauthorizedError } from '@platform/errors';
import { reply, routesOf } from '@platform/http';
import type { Request } from 'express';
import { z } from 'zod';
import type { PgFeatureFlagsClientStore } from '../feature-flags/feature-flags-client-store.ts';
import type { PgFeatureFlagStore } from '../feature-flags/feature-flags-store.ts';
import { unleashFeatures } from './unleash-views.ts';

export interface UnleashRouteDeps {
  clients: PgFeatureFlagsClientStore;
  flags: PgFeatureFlagStore;
}

const route = routesOf<UnleashRouteDeps>('delivery');

/** The project is named by its numeric id; the instance id and app name come as headers or parameters. */
const unleashInput = z.object({
  project_id: z.string().max(255),
  instance_id: z.string().max(255).optional(),
  app_name: z.string().max(255).optional(),
});

/**
 * The project the request's Unleash instance id opens: GitLab answers 401 for a missing or wrong
 * instance id and for an unknown project alike.
 */
async function authenticatedProject(deps: UnleashRouteDeps, request: Request, input: z.output<typeof unleashInput>): Promise<number> {
  const token = request.get('unleash-instanceid') ?? input.instance_id;
  const projectId = /^\d{1,18}$/.test(input.project_id) ? Number(input.project_id) : undefined;
  if (!token || projectId === undefined || !(await deps.clients.authenticates(projectId, token))) throw new UnauthorizedError();
  return projectId;
}

const features = async ({ deps, input, request }: { deps: UnleashRouteDeps; input: z.output<typeof unleashInput>; request: Request }) => {
  const projectId = await authenticatedProject(deps, request, input);
  const environment = request.get('unleash-appname') ?? input.app_name;
  return unleashFeatures(await deps.flags.allCurrent(projectId), environment || undefined);
};

/** A no-op GitLab acknowledges with 200 and no body, once the instance id checks out. */
const acknowledge = async ({
  deps,
  input,
  request,
}: {
  deps: UnleashRouteDeps;
  input: z.output<typeof unleashInput>;
  request: Request;
}) => {
  await authenticatedProject(deps, request, input);
  return reply({ status: 200, body: '' });
};

/**
 * GitLab's Unleash-compatible API, which Unleash SDKs call with the project's instance id rather
 * than a user's token (the gateway forwards it unauthenticated).
 */
export const unleashRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/feature_flags/unleash/:project_id',
    access: 'anonymous',
    scope: 'read_api',
    input: unleashInput,
    handle: acknowledge,
  }),
  route({
    method: 'GET',
    path: '/api/v4/feature_flags/unleash/:project_id/features',
    access: 'anonymous',
    scope: 'read_api',
    input: unleashInput,
    handle: features,
  }),
  route({
    method: 'GET',
    path: '/api/v4/feature_flags/unleash/:project_id/client/features',
    access: 'anonymous',
    scope: 'read_api',
    input: unleashInput,
    handle: features,
  }),
  route({
    method: 'POST',
    path: '/api/v4/feature_flags/unleash/:project_id/client/register',
    access: 'anonymous',
    scope: 'api',
    input: unleashInput,
    handle: acknowledge,
  }),
  route({
    method: 'POST',
    path: '/api/v4/feature_flags/unleash/:project_id/client/metrics',
    access: 'anonymous',
    scope: 'api',
    input: unleashInput,
    handle: acknowledge,
  }),
];
