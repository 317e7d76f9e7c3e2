/**
 * The permission sweep: every catalogued route, through the gateway, as every kind of caller and
 * as tokens of narrower scopes, against a private group and project. A caller GitLab refuses must
 * be refused (401 anonymous, 403 `insufficient_scope` or administrator-only, no 2xx where the role
 * is too low), and no cell may answer 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { scopesGranting, type TokenScope } from '@platform/auth';
import type { CatalogueEntry } from '@platform/http';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';
import { MATRIX_ENTRIES, ROLE } from './permission-matrix.ts';
import { loadRouteCatalogue } from './route-catalogue.ts';

interface MatrixCaller {
  name: string;
  token?: string;
  /** Role on the fixture group and project; undefined for none. */
  role?: number;
  isAdmin?: boolean;
  blocked?: boolean;
  /** Scopes of the token; `api` unless narrowed. */
  scopes: TokenScope[];
}

let platform: Awaited<ReturnType<typeof startTestPlatform>>;
let gateway: ReturnType<typeof request>;
let catalogue: readonly CatalogueEntry[];
const callers: MatrixCaller[] = [];
const fixture = { groupId: 0, groupPath: '', projectId: 0, otherGroupId: 0, victimId: 0 };

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

/** Each route's path with the fixture's ids in place of its parameters. */
function concretePath(route: CatalogueEntry): string {
  const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`];
  return route.path.replace(/:([a-z_]+)/g, (_match, name: string) => {
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
      default:
        return '424242';
    }
  });
}

type Expectation = { status: number; why: string } | { denied: true; why: string } | { allowed: true };

/** GitLab's answer for one cell, as far as authorization decides it. */
function expectationFor(route: CatalogueEntry, caller: MatrixCaller): Expectation {
  const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`]!;
  // SCIM authenticates with the group's SCIM token alone, which no caller here holds.
  if (entry.target === 'scim') return { denied: true, why: 'no SCIM token' };
  if (!caller.token) {
    if (route.access !== 'anonymous') return { status: 401, why: 'anonymous' };
    if (entry.minRole !== undefined) return { denied: true, why: 'private resource' };
    return { allowed: true };
  }
  if (caller.blocked) return { denied: true, why: 'blocked' };
  if (!scopesGranting(route.scope).some((scope) => caller.scopes.includes(scope))) return { status: 403, why: `needs ${route.scope}` };
  if (route.access === 'administrator' && !caller.isAdmin) return { status: 403, why: 'administrators only' };
  if (entry.minRole !== undefined && !caller.isAdmin && (caller.role ?? 0) < entry.minRole) {
    return { denied: true, why: `needs role ${entry.minRole}` };
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
    // Least privileged callers first; routes that destroy the fixture last, those that end the caller's own token at the very end.
    const order = (route: CatalogueEntry) => {
      const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`];
      if (!entry?.destructive) return 0;
      return route.path.includes('/personal_access_tokens/self') ? 2 : 1;
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
        if (route.method !== 'GET' && route.method !== 'DELETE') call = call.send({});
        const response = await call;
        cells += 1;
        const cell = `${route.method} ${path} as ${caller.name}: ${response.status} ${response.text.slice(0, 120)}`;
        if (response.status >= 500) problems.push(`5xx  ${cell}`);
        else if ('status' in expectation && response.status !== expectation.status) {
          problems.push(`expected ${expectation.status} (${expectation.why})  ${cell}`);
        } else if ('denied' in expectation && response.status < 300) problems.push(`leak (${expectation.why})  ${cell}`);
      }
    }
    process.stdout.write(
      `permission matrix: ${routes.length} routes x ${callers.length} callers = ${cells} cells, ${problems.length} problems\n`,
    );
    expect(problems).toEqual([]);
  }, 300_000);
});
