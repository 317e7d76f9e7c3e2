/**
 * The permission sweep: every catalogued route, through the gateway, as every kind of caller and
 * as tokens of narrower scopes, against a private group and project. A caller GitLab refuses must
 * be refused with GitLab's exact status (401 anonymous, 403 `insufficient_scope`, 403 blocked or
 * administrator-only, 404 invisible, 403 too low a role), and no cell may answer 5xx. Every kind of
 * credential is a caller: personal, impersonation, project and group access tokens, deploy tokens
 * of each registry scope, and tokens the platform no longer accepts (revoked, expired, the bot's of
 * a deleted project), which are 401 everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import request from 'supertest';
import { scopesGranting, type TokenScope } from '@platform/auth';
import { databaseUrlFor } from '@platform/devstack';
import { testEnvironment } from '@platform/testing';
import type { CatalogueEntry } from '@platform/http';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';
import { MATRIX_ENTRIES, ROLE } from './permission-matrix.ts';
import { loadRouteCatalogue } from './route-catalogue.ts';

interface MatrixCaller {
  name: string;
  token?: string;
  /** Role on the fixture group and project; undefined for none. */
  role?: number;
  /** The role is the fixture project's only (a project access token's bot), not its group's. */
  projectRoleOnly?: true;
  isAdmin?: boolean;
  blocked?: boolean;
  /** Scopes of the token; `api` unless narrowed. */
  scopes: TokenScope[];
  /** A deploy token, with the package registry scope it has: git and the registries take it, the API never does. */
  deployToken?: 'read_package_registry' | 'write_package_registry';
  /** A token the platform no longer accepts, and why: 401 on every route. */
  refused?: string;
}

let platform: Awaited<ReturnType<typeof startTestPlatform>>;
let gateway: ReturnType<typeof request>;
let catalogue: readonly CatalogueEntry[];
const callers: MatrixCaller[] = [];
const fixture = { groupId: 0, groupPath: '', projectId: 0, otherGroupId: 0, victimId: 0, projectDeleted: false };

const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

async function created(response: request.Response): Promise<Record<string, unknown>> {
  if (response.status !== 201) throw new Error(`fixture: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

async function createUser(username: string, extra: Record<string, unknown> = {}): Promise<number> {
  const body = await created(
    await gateway
      .post('/api/v4/users')
      .set(asRoot)
      .send({
        username,
        name: username,
        email: `${username}@matrix.example`,
        password: 'matrix-password-1',
        skip_confirmation: true,
        ...extra,
      }),
  );
  return body.id as number;
}

async function tokenFor(userId: number, scopes: TokenScope[]): Promise<string> {
  const body = await created(
    await gateway
      .post(`/api/v4/users/${userId}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: `matrix-${scopes.join('-')}`, scopes }),
  );
  return body.token as string;
}

/**
 * Tokens that once worked and work no more: a revoked one, an expired one, and the token of a
 * bot whose project was deleted.
 */
async function refusedCallers(userId: number, ownerToken: string): Promise<MatrixCaller[]> {
  const revoked = await created(
    await gateway
      .post(`/api/v4/users/${userId}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 'matrix-revoked', scopes: ['api'] }),
  );
  if ((await gateway.delete(`/api/v4/personal_access_tokens/${revoked.id}`).set(asRoot)).status !== 204) throw new Error('fixture: revoke');
  const expiring = await created(
    await gateway
      .post(`/api/v4/users/${userId}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 'matrix-expired', scopes: ['api'] }),
  );
  const identity = new pg.Client({ connectionString: databaseUrlFor(testEnvironment().postgresUrl, `${platform.databasePrefix}identity`) });
  await identity.connect();
  try {
    await identity.query(`update personal_access_tokens set expires_at = current_date - 1 where id = $1`, [expiring.id]);
  } finally {
    await identity.end();
  }
  const doomed = await created(
    await gateway
      .post('/api/v4/projects')
      .set('PRIVATE-TOKEN', ownerToken)
      .send({ name: 'Matrix doomed', path: 'doomed', namespace_id: fixture.groupId, visibility: 'private' }),
  );
  const orphan = await created(
    await gateway
      .post(`/api/v4/projects/${doomed.id}/access_tokens`)
      .set('PRIVATE-TOKEN', ownerToken)
      .send({ name: 'matrix orphan', scopes: ['api'], access_level: ROLE.maintainer }),
  );
  if ((await gateway.delete(`/api/v4/projects/${doomed.id}`).set('PRIVATE-TOKEN', ownerToken)).status !== 202) {
    throw new Error('fixture: project deletion');
  }
  return [
    { name: 'revoked token', token: revoked.token as string, scopes: ['api'], refused: 'revoked' },
    { name: 'expired token', token: expiring.token as string, scopes: ['api'], refused: 'expired' },
    { name: "deleted project's bot", token: orphan.token as string, scopes: ['api'], refused: 'its project is deleted' },
  ];
}

/** Each route's path with the fixture's ids in place of its parameters. */
function concretePath(route: CatalogueEntry): string {
  const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`];
  const query = entry?.query ? `?${new URLSearchParams(entry.query).toString()}` : '';
  const path = route.path.replace(/:([a-z_]+)/g, (_match, name: string) => {
    switch (name) {
      case 'id':
        if (entry?.target === 'group') return String(fixture.groupId);
        if (entry?.target === 'project') return String(fixture.projectId);
        if (entry?.target === 'user') return String(fixture.victimId);
        if (entry?.target === 'scim') return 'nobody';
        return '424242';
      case 'user_id':
        return String(fixture.victimId);
      case 'group_id':
        return route.path.includes('scim_links') ? String(fixture.groupId) : String(fixture.otherGroupId);
      case 'group_path':
        return fixture.groupPath;
      case 'provider':
        return 'ldapmain';
      case 'key':
        return 'matrix_key';
      case 'trigger':
        return 'push_events';
      default:
        return '424242';
    }
  });
  return `${path}${query}`;
}

/** A refusal GitLab answers with exactly this status (and, for a narrow token, its `insufficient_scope` body), or an allowed call. */
type Expectation = { status: number; why: string; insufficientScope?: true } | { allowed: true };

/**
 * GitLab's answer for one cell, as far as authorization decides it: 401 without a usable token,
 * 403 `insufficient_scope` for a token whose scopes do not cover the route, 403 for a blocked
 * user or an administrator-only route, 404 for a private resource the caller cannot see, and 403
 * for one they see (as a member) with too low a role.
 */
function expectationFor(route: CatalogueEntry, caller: MatrixCaller): Expectation {
  const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`]!;
  // The fixture group has no SCIM configured: GitLab answers that it is not found, whoever calls,
  // once the parameters (validated first, as Grape does) are valid; an empty SCIM body is not.
  if (entry.target === 'scim') {
    if (route.method === 'POST' || route.method === 'PATCH') return { status: 400, why: 'SCIM body missing' };
    return { status: 404, why: 'no SCIM for the group' };
  }
  // Unleash clients present the project's instance id, which no caller here has; a user's token counts for nothing.
  if (entry.target === 'unleash') return { status: 401, why: 'no Unleash instance id' };
  if (caller.refused) return { status: 401, why: caller.refused };
  if (caller.projectRoleOnly && fixture.projectDeleted) return { status: 401, why: "a bot's project is deleted (by a destructive route)" };
  if (caller.deployToken) {
    // The npm, Maven and generic registries take a deploy token (here the Deploy-Token header): read_package_registry
    // reads, write_package_registry also publishes where the route takes a deploy token; none deletes.
    if (!/\/packages\/(npm|maven|generic)\//.test(route.path)) return { status: 401, why: 'a deploy token is no API token' };
    if (route.method === 'GET') return { allowed: true };
    if (route.access === 'user_or_deploy_token' && caller.deployToken === 'write_package_registry') return { allowed: true };
    // At instance level the package's scope finds the project, before the token's scopes count: no project holds 424242.
    if (route.access === 'user_or_deploy_token' && entry.target === 'none') return { status: 404, why: 'no project holds the package' };
    return { status: 403, why: 'a deploy token publishes only with write_package_registry, and never deletes' };
  }
  if (!caller.token) {
    if (route.access !== 'anonymous') return { status: 401, why: 'anonymous' };
    if (entry.minRole !== undefined) return { status: 404, why: 'private resource' };
    return { allowed: true };
  }
  if (caller.blocked) return { status: 403, why: 'blocked' };
  if (!scopesGranting(route.scope).some((scope) => caller.scopes.includes(scope))) {
    return { status: 403, why: `needs ${route.scope}`, insufficientScope: true };
  }
  if (route.access === 'administrator' && !caller.isAdmin) return { status: 403, why: 'administrators only' };
  if (caller.projectRoleOnly && entry.target === 'group') {
    // GitLab shows a private group to the members of its projects, without a role in it: what any
    // member may do there they may (read, request access), nothing that takes a role.
    if (entry.minRole === ROLE.guest) return { allowed: true };
    return { status: entry.belowRole ?? 403, why: 'sees the group as a member of its project, without a role' };
  }
  if (entry.minRole !== undefined && !caller.isAdmin && (caller.role ?? 0) < entry.minRole) {
    if (caller.role === undefined) return { status: 404, why: 'private resource, not a member' };
    if (entry.belowMinRole && caller.role >= entry.belowMinRole.fromRole) {
      return { status: entry.belowMinRole.status, why: entry.belowMinRole.why };
    }
    return { status: entry.belowRole ?? 403, why: `needs role ${entry.minRole}` };
  }
  return { allowed: true };
}

beforeAll(async () => {
  platform = await startTestPlatform({ authCacheTtlMs: 0 });
  gateway = request(platform.url);
  catalogue = await loadRouteCatalogue();

  const ids: Record<string, number> = {};
  for (const name of ['nonmember', 'guest', 'reporter', 'developer', 'maintainer', 'owner', 'blocked', 'victim']) {
    ids[name] = await createUser(`matrix-${name}`);
  }
  ids.external = await createUser('matrix-external', { external: true });
  fixture.victimId = ids.victim!;

  const ownerToken = await tokenFor(ids.owner!, ['api']);
  const group = await created(
    await gateway.post('/api/v4/groups').set('PRIVATE-TOKEN', ownerToken).send({ name: 'Matrix', path: 'matrix', visibility: 'private' }),
  );
  fixture.groupId = group.id as number;
  fixture.groupPath = group.full_path as string;
  const project = await created(
    await gateway
      .post('/api/v4/projects')
      .set('PRIVATE-TOKEN', ownerToken)
      .send({ name: 'Matrix app', path: 'app', namespace_id: fixture.groupId, visibility: 'private' }),
  );
  fixture.projectId = project.id as number;
  const other = await created(await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Matrix other', path: 'matrix-other' }));
  fixture.otherGroupId = other.id as number;
  for (const [name, level] of [
    ['guest', ROLE.guest],
    ['reporter', ROLE.reporter],
    ['developer', ROLE.developer],
    ['maintainer', ROLE.maintainer],
    ['victim', ROLE.guest],
    ['blocked', ROLE.maintainer],
  ] as const) {
    await created(
      await gateway.post(`/api/v4/groups/${fixture.groupId}/members`).set(asRoot).send({ user_id: ids[name], access_level: level }),
    );
  }

  callers.push({ name: 'anonymous', scopes: [] });
  for (const scope of ['read_user', 'read_api', 'read_repository'] as const) {
    callers.push({ name: `owner's ${scope} token`, token: await tokenFor(ids.owner!, [scope]), role: ROLE.owner, scopes: [scope] });
  }
  const blockedToken = await tokenFor(ids.blocked!, ['api']);
  expect((await gateway.post(`/api/v4/users/${ids.blocked}/block`).set(asRoot)).status).toBe(201);
  callers.push({ name: 'blocked user', token: blockedToken, role: ROLE.maintainer, blocked: true, scopes: ['api'] });
  callers.push({ name: 'external user', token: await tokenFor(ids.external!, ['api']), scopes: ['api'] });
  callers.push({ name: 'non-member', token: await tokenFor(ids.nonmember!, ['api']), scopes: ['api'] });
  // Before the owner and the administrator, whose calls of destructive routes delete the fixture.
  // A group access token acts as its bot, a member of the group at the token's role.
  const groupBot = await created(
    await gateway
      .post(`/api/v4/groups/${fixture.groupId}/access_tokens`)
      .set('PRIVATE-TOKEN', ownerToken)
      .send({ name: 'matrix bot', scopes: ['api'], access_level: ROLE.developer }),
  );
  callers.push({ name: 'group access token (developer)', token: groupBot.token as string, role: ROLE.developer, scopes: ['api'] });
  const deployToken = await created(
    await gateway
      .post(`/api/v4/projects/${fixture.projectId}/deploy_tokens`)
      .set('PRIVATE-TOKEN', ownerToken)
      .send({ name: 'matrix', scopes: ['read_repository', 'read_package_registry'] }),
  );
  callers.push({ name: 'deploy token', token: deployToken.token as string, scopes: [], deployToken: 'read_package_registry' });
  const writingDeployToken = await created(
    await gateway
      .post(`/api/v4/projects/${fixture.projectId}/deploy_tokens`)
      .set('PRIVATE-TOKEN', ownerToken)
      .send({ name: 'matrix writer', scopes: ['read_package_registry', 'write_package_registry'] }),
  );
  callers.push({
    name: 'deploy token (write_package_registry)',
    token: writingDeployToken.token as string,
    scopes: [],
    deployToken: 'write_package_registry',
  });
  // A project access token acts as its bot, a member of the project (not of its group) at the token's role.
  const projectBot = await created(
    await gateway
      .post(`/api/v4/projects/${fixture.projectId}/access_tokens`)
      .set('PRIVATE-TOKEN', ownerToken)
      .send({ name: 'matrix project bot', scopes: ['api'], access_level: ROLE.maintainer }),
  );
  callers.push({
    name: 'project access token (maintainer)',
    token: projectBot.token as string,
    role: ROLE.maintainer,
    projectRoleOnly: true,
    scopes: ['api'],
  });
  // An impersonation token acts as its user, with that user's rights.
  const impersonation = await created(
    await gateway
      .post(`/api/v4/users/${ids.developer}/impersonation_tokens`)
      .set(asRoot)
      .send({ name: 'matrix', scopes: ['api'] }),
  );
  callers.push({ name: 'impersonation token (developer)', token: impersonation.token as string, role: ROLE.developer, scopes: ['api'] });
  callers.push(...(await refusedCallers(ids.developer!, ownerToken)));
  for (const name of ['guest', 'reporter', 'developer', 'maintainer'] as const) {
    callers.push({ name, token: await tokenFor(ids[name]!, ['api']), role: ROLE[name], scopes: ['api'] });
  }
  callers.push({ name: 'owner', token: ownerToken, role: ROLE.owner, scopes: ['api'] });
  callers.push({ name: 'administrator', token: await tokenFor(1, ['api', 'sudo']), isAdmin: true, scopes: ['api', 'sudo'] });
  // Starting the platform and the fixture takes long on a machine busy with the rest of the suite.
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe('the permission matrix', () => {
  it('has an entry for every catalogued route, and none for a route that is gone', () => {
    const catalogued = catalogue.map((route) => `${route.method} ${route.path}`);
    expect(catalogued.filter((key) => !(key in MATRIX_ENTRIES))).toEqual([]);
    expect(Object.keys(MATRIX_ENTRIES).filter((key) => !catalogued.includes(key))).toEqual([]);
  });

  it('refuses every caller GitLab refuses, and never answers 5xx', async () => {
    // Least privileged callers first; routes that destroy the fixture last (the project before its group), those that end the caller's own token at the very end.
    const order = (route: CatalogueEntry) => {
      const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`];
      if (!entry?.destructive) return 0;
      if (route.path.includes('/personal_access_tokens/self')) return 3;
      // Deleting the group deletes its project: the project's own deletion is weighed first.
      return entry.target === 'group' ? 2 : 1;
    };
    const routes = [...catalogue].sort((a, b) => order(a) - order(b));
    const problems: string[] = [];
    let cells = 0;
    for (const route of routes) {
      const path = concretePath(route);
      for (const caller of callers) {
        const expectation = expectationFor(route, caller);
        let call = gateway[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path);
        if (caller.token) call = call.set('PRIVATE-TOKEN', caller.token);
        if (caller.deployToken && caller.token) call = call.set('Deploy-Token', caller.token);
        if (route.method !== 'GET' && route.method !== 'DELETE') {
          const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`];
          call = call.send(entry?.body?.({ userId: fixture.victimId, otherGroupId: fixture.otherGroupId }) ?? {});
        }
        const response = await call;
        cells += 1;
        if (route.method === 'DELETE' && route.path === '/api/v4/projects/:id' && response.status === 202) fixture.projectDeleted = true;
        // Archives and raw blobs answer binary bodies, which supertest leaves without text.
        const cell = `${route.method} ${path} as ${caller.name}: ${response.status} ${(response.text ?? '').slice(0, 120)}`;
        if (response.status >= 500) problems.push(`5xx  ${cell}`);
        else if ('status' in expectation && response.status !== expectation.status) {
          problems.push(`expected ${expectation.status} (${expectation.why})  ${cell}`);
        } else if ('insufficientScope' in expectation && (response.body as { error?: string }).error !== 'insufficient_scope') {
          problems.push(`expected insufficient_scope (${expectation.why})  ${cell}`);
        }
      }
    }
    process.stdout.write(
      `permission matrix: ${routes.length} routes x ${callers.length} callers = ${cells} cells, ${problems.length} problems\n`,
    );
    expect(problems).toEqual([]);
  }, 300_000);
});
