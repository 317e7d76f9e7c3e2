import { UnauthorizedError } from '@platform/errors';
import { reply, routesOf } from '@platform/http';
import type { Request } from 'express';
import { z } from 'zod';
import type { PgFeatureFlagStore } from '../feature-flags/feature-flags-store.ts';
import type { ClientFeaturesCache } from './client-features-cache.ts';
import type { UnleashClientStates } from './unleash-client-states.ts';
import { unleashFeatures } from './unleash-views.ts';

export interface UnleashRouteDeps {
  states: UnleashClientStates;
  flags: PgFeatureFlagStore;
  answers: ClientFeaturesCache;
}

const route = routesOf<UnleashRouteDeps>('delivery');

/** The project is named by its numeric id; the instance id and app name come as headers or parameters. */
const unleashInput = z.object({
  project_id: z.string().max(255),
  instance_id: z.string().max(255).optional(),
  app_name: z.string().max(255).optional(),
});

/** The project and instance id a request presents; null when either is missing or no project id. */
function presented(request: Request, input: z.output<typeof unleashInput>): { projectId: number; token: string } | null {
  const token = request.get('unleash-instanceid') ?? input.instance_id;
  if (!token || !/^\d{1,18}$/.test(input.project_id)) return null;
  return { projectId: Number(input.project_id), token };
}

/**
 * The project the request's Unleash instance id opens: GitLab answers 401 for a missing or wrong
 * instance id and for an unknown project alike.
 */
async function authenticatedProject(deps: UnleashRouteDeps, request: Request, input: z.output<typeof unleashInput>): Promise<number> {
  const instance = presented(request, input);
  if (!instance || (await deps.states.revisionFor(instance.projectId, instance.token)) === null) throw new UnauthorizedError();
  return instance.projectId;
}

/**
 * Whether the SDK holds the answer: its `If-None-Match` names the answer's entity tag (weak
 * comparison, RFC 9110 13.1.2), as GitLab and Unleash's own server compare them. Not `fresh`,
 * which answers in full whenever the request says `Cache-Control: no-cache`, as fetch clients add
 * to every conditional request; an origin server answers 304 to those too.
 */
function holdsAnswer(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((listed) => {
    const tag = listed.trim();
    return (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}

/**
 * The flags as SDKs poll them, every few seconds from every instance of every application: the
 * instance id is checked and the project's revision read from memory (`UnleashClientStates`),
 * and the answer built for that revision is served as it is (or 304 when the SDK's
 * `If-None-Match` names it, as Unleash answers), so a poll between changes runs no statement.
 */
const features = async ({ deps, input, request }: { deps: UnleashRouteDeps; input: z.output<typeof unleashInput>; request: Request }) => {
  const instance = presented(request, input);
  // Kept states and answers come without a promise; only a miss is waited for.
  const found = instance && deps.states.revisionFor(instance.projectId, instance.token);
  const revision = found instanceof Promise ? await found : found;
  if (!instance || revision === null) throw new UnauthorizedError();
  const { projectId } = instance;
  const environment = (request.get('unleash-appname') ?? input.app_name) || undefined;
  const kept = deps.answers.answer({ projectId, revision, environment }, async () =>
    unleashFeatures(await deps.flags.allCurrent(projectId), environment),
  );
  const answer = kept instanceof Promise ? await kept : kept;
  // A 304 carries only the entity tag, as Unleash's own server answers.
  if (holdsAnswer(request.headers['if-none-match'], answer.etag)) return reply({ status: 304, headers: answer.headers.notModified });
  return reply({ headers: answer.headers.full, body: answer.body });
};

/**
 * A no-op GitLab acknowledges with 200 and no body, once the instance id checks out. The
 * registration's and metrics' bodies are dropped, as GitLab drops them (`dropsBody`).
 */
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
    dropsBody: true,
    handle: acknowledge,
  }),
  route({
    method: 'POST',
    path: '/api/v4/feature_flags/unleash/:project_id/client/metrics',
    access: 'anonymous',
    scope: 'api',
    input: unleashInput,
    dropsBody: true,
    handle: acknowledge,
  }),
];
