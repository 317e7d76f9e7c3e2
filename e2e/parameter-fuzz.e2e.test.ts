/**
 * Parameter fuzz: every catalogued route, through the gateway, with property-generated malformed
 * parameters (wrong types, huge and negative numbers, unicode, NUL bytes, empty and overlong
 * strings, arrays and nested hashes where scalars belong, unknown enum values, broken JSON and
 * form bodies), as the administrator and as a non-member. No answer may be a 5xx, every refusal
 * has a GitLab body, and a refused write leaves the platform as it was, as the API shows it.
 * The seed is fixed (FUZZ_SEED overrides it, FUZZ_RUNS the runs per route and caller).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import request from 'supertest';
import type { z } from 'zod';
import type { CatalogueEntry } from '@platform/http';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';
import { MATRIX_ENTRIES } from './permission-matrix.ts';
import { loadRouteCatalogue } from './route-catalogue.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5);

let platform: Awaited<ReturnType<typeof startTestPlatform>>;
let gateway: ReturnType<typeof request>;
let catalogue: readonly CatalogueEntry[];
const fixture = { groupId: 0, groupPath: '', projectId: 0, otherGroupId: 0, victimId: 0, nonMemberId: 0, nonMemberToken: '' };
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

async function created(response: request.Response): Promise<Record<string, unknown>> {
  if (response.status !== 201) throw new Error(`fixture: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

async function tokenFor(userId: number): Promise<string> {
  const body = await created(
    await gateway
      .post(`/api/v4/users/${userId}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 'fuzz', scopes: ['api'] }),
  );
  return body.token as string;
}

/** The parameter names a route's schema reads, found through zod's wrappers (pipes, defaults, intersections). */
function parameterNames(schema: z.ZodType): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return;
    if (def.type === 'object') for (const name of Object.keys(def.shape as object)) names.add(name);
    for (const inner of ['in', 'out', 'innerType', 'left', 'right']) if (def[inner]) visit(def[inner]);
    if (Array.isArray(def.options)) for (const option of def.options) visit(option);
  };
  visit(schema);
  return [...names];
}

/** Values no parameter accepts as they are, or accepts only at its edges. */
const malformedScalar = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '-2147483649',
    '2147483648',
    '99999999999999999999999',
    '1e309',
    'NaN',
    'Infinity',
    '1.5',
    '0x1f',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '😀',
    'ü'.repeat(300),
    '../../etc/passwd',
    "' or 1=1 --",
    '%ZZ',
    '%E0%A4%A',
    '<script>',
    'x'.repeat(70_000),
    'not_a_valid_enum_value',
  ),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const malformedValue = fc.oneof(
  { weight: 4, arbitrary: malformedScalar },
  fc.array(malformedScalar, { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), malformedScalar, { maxKeys: 3 }),
  // Nested far deeper than any parameter.
  fc.integer({ min: 6, max: 60 }).map((depth) => {
    let value: unknown = 'deep';
    for (let level = 0; level < depth; level += 1) value = { a: value };
    return value;
  }),
);

/** Path segments that name nothing, or not in the form the route expects; some are raw (already percent-encoded, or not validly). */
const malformedSegment = fc.oneof(
  malformedScalar
    .map((value) => String(value).slice(0, 3000))
    // A small number could be a real id: the fixture's users and tokens must survive the fuzz.
    .filter((value) => !/^\s*\+?\d{1,7}\s*$/.test(value))
    .map(percentEncode),
  fc.constantFrom('%E0%A4%A', '%ZZ', '%00', '%', '%2e%2e', '%C0%AE', '-1', '0', '99999999999999999999', '1.0', '+1', ' 1'),
);

/** Percent-encoding of any string; a lone surrogate, which has no UTF-8 form, becomes U+FFFD as a browser sends it. */
function percentEncode(value: string): string {
  return encodeURIComponent(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** Form encoding in Rails' bracket notation: `a[b][]=c`. */
function formPairs(value: unknown, prefix: string, pairs: string[]): string[] {
  if (Array.isArray(value)) for (const item of value) formPairs(item, `${prefix}[]`, pairs);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) formPairs(inner, `${prefix}[${key}]`, pairs);
  } else pairs.push(`${percentEncode(prefix)}=${percentEncode(String(value))}`);
  return pairs;
}

function formEncode(params: Record<string, unknown>): string {
  return Object.entries(params)
    .flatMap(([name, value]) => formPairs(value, name, []))
    .join('&');
}

type Encoding = 'json' | 'form' | 'query' | 'broken-json' | 'bogus-charset';
interface FuzzCase {
  path: Record<string, string>;
  params: Record<string, unknown>;
  encoding: Encoding;
  brokenBody: string;
}

function fuzzCases(route: CatalogueEntry, seed: number): FuzzCase[] {
  const entry = MATRIX_ENTRIES[`${route.method} ${route.path}`];
  const pathNames = [...route.path.matchAll(/:([a-z_]+)/g)].map((match) => match[1]!);
  // A destructive route with real ids would destroy the fixture the following routes need.
  const segment = (name: string) =>
    entry?.destructive ? malformedSegment : fc.oneof(fc.constant(validSegment(route, name)), malformedSegment);
  const names = parameterNames(route.input).filter((name) => !pathNames.includes(name));
  const isRead = route.method === 'GET';
  const arbitrary = fc.record({
    path: fc.record(Object.fromEntries(pathNames.map((name) => [name, segment(name)]))),
    params: fc.dictionary(
      fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['unknown'])) }, fc.string({ maxLength: 10 })),
      malformedValue,
      { minKeys: 1, maxKeys: 4 },
    ),
    encoding: isRead
      ? fc.constant<Encoding>('query')
      : fc.constantFrom<Encoding>('json', 'json', 'form', 'query', 'broken-json', 'bogus-charset'),
    brokenBody: fc.constantFrom('{"name":', '[1,2', '{"a":1}}', 'null', '"text"', '\u0000', '{"a":"\\ud800"}', '{'.repeat(5000)),
  });
  return fc.sample(arbitrary, { seed, numRuns: RUNS });
}

/** The fixture's value of a path parameter, as the permission matrix chooses it. */
function validSegment(route: CatalogueEntry, name: string): string {
  const target = MATRIX_ENTRIES[`${route.method} ${route.path}`]?.target;
  switch (name) {
    case 'id':
      if (target === 'group') return String(fixture.groupId);
      if (target === 'project') return String(fixture.projectId);
      if (target === 'user') return String(fixture.victimId);
      return '424242';
    case 'user_id':
      return String(fixture.victimId);
    case 'group_id':
      return String(fixture.otherGroupId);
    case 'group_path':
      return fixture.groupPath;
    default:
      return 'fuzz';
  }
}

function send(route: CatalogueEntry, fuzz: FuzzCase, token: string): request.Test {
  const path = route.path.replace(/:([a-z_]+)/g, (_match, name: string) => fuzz.path[name] ?? 'fuzz');
  const query = fuzz.encoding === 'query' ? formEncode(fuzz.params) : '';
  const url = query ? `${path}?${query}` : path;
  const call = gateway[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url).set('PRIVATE-TOKEN', token);
  switch (fuzz.encoding) {
    case 'json':
      return call.set('Content-Type', 'application/json').send(JSON.stringify(fuzz.params));
    case 'form':
      return call.set('Content-Type', 'application/x-www-form-urlencoded').send(formEncode(fuzz.params));
    case 'broken-json':
      return call.set('Content-Type', 'application/json').send(fuzz.brokenBody);
    case 'bogus-charset':
      return call.set('Content-Type', 'application/json; charset=x-bogus').send(JSON.stringify(fuzz.params));
    case 'query':
      return call;
  }
}

/**
 * What writes could change, as the administrator sees it through the API: how many users,
 * groups, projects, members, keys, emails and tokens there are, and the fixture's group, project and user.
 */
async function platformState(): Promise<string> {
  const totals = [
    '/api/v4/users',
    '/api/v4/groups?all_available=true',
    '/api/v4/projects',
    `/api/v4/groups/${fixture.groupId}/members`,
    `/api/v4/projects/${fixture.projectId}/members`,
    '/api/v4/personal_access_tokens',
    `/api/v4/users/${fixture.victimId}/keys`,
    `/api/v4/users/${fixture.victimId}/emails`,
  ];
  const shown = [`/api/v4/groups/${fixture.groupId}`, `/api/v4/projects/${fixture.projectId}`, `/api/v4/users/${fixture.victimId}`];
  const answers = await Promise.all([...totals, ...shown].map((path) => shownToRoot(path)));
  return JSON.stringify(
    answers.map((answer, index) =>
      index < totals.length ? `${answer.status}:${answer.headers['x-total'] ?? (answer.body as unknown[]).length}` : answer.text,
    ),
  );
}

/**
 * What root is shown at `path`, asked again while the gateway sheds load (503) for up to a minute:
 * a state read that caught a refusal would look like a change of state.
 */
async function shownToRoot(path: string): Promise<request.Response> {
  return waitFor(
    async () => {
      const answer = await gateway.get(path).set(asRoot);
      return answer.status === 503 ? undefined : answer;
    },
    { what: `GET ${path} answered without shedding load`, timeoutMs: 60_000 },
  );
}

/**
 * The answer, asked once more if the first was 503: on a machine busy with the rest of the suite
 * the gateway sheds load, which says nothing about the parameters. A second 5xx stands.
 */
async function withoutOverload(call: () => request.Test): Promise<request.Response> {
  const first = await call();
  return first.status === 503 ? call() : first;
}

/** A refusal in GitLab's shape (`error` or `message`), or SCIM's own (`detail`) under /api/scim. */
function hasErrorBody(route: CatalogueEntry, response: request.Response): boolean {
  const body = response.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return false;
  if (route.path.startsWith('/api/scim/')) return typeof body.detail === 'string' || 'error' in body || 'message' in body;
  return 'error' in body || 'message' in body;
}

beforeAll(async () => {
  platform = await startTestPlatform({ authCacheTtlMs: 0 });
  gateway = request(platform.url);
  catalogue = await loadRouteCatalogue();
  const user = async (username: string) =>
    (
      await created(
        await gateway
          .post('/api/v4/users')
          .set(asRoot)
          .send({ username, name: username, email: `${username}@fuzz.example`, password: 'fuzz-password-1', skip_confirmation: true }),
      )
    ).id as number;
  fixture.nonMemberId = await user('fuzz-nonmember');
  fixture.victimId = await user('fuzz-victim');
  fixture.nonMemberToken = await tokenFor(fixture.nonMemberId);
  const group = await created(await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Fuzz', path: 'fuzz', visibility: 'private' }));
  fixture.groupId = group.id as number;
  fixture.groupPath = group.full_path as string;
  const project = await created(
    await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Fuzz app', path: 'app', namespace_id: fixture.groupId }),
  );
  fixture.projectId = project.id as number;
  fixture.otherGroupId = (await created(await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Fuzz other', path: 'fuzz-other' })))
    .id as number;
  await created(
    await gateway.post(`/api/v4/groups/${fixture.groupId}/members`).set(asRoot).send({ user_id: fixture.victimId, access_level: 30 }),
  );
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe('parameter fuzz over the route catalogue', () => {
  it('never answers 5xx, refuses with a GitLab body, and writes nothing when it refuses', async () => {
    const routes = [...catalogue].sort(
      (a, b) =>
        Number(MATRIX_ENTRIES[`${a.method} ${a.path}`]?.destructive ?? false) -
        Number(MATRIX_ENTRIES[`${b.method} ${b.path}`]?.destructive ?? false),
    );
    const problems: string[] = [];
    let requests = 0;
    let state = await platformState();
    for (const [index, route] of routes.entries()) {
      // One seed per route, so that a route added or removed leaves the others' cases as they were.
      const cases = fuzzCases(route, SEED + index);
      for (const [callerName, ownToken] of [
        ['administrator', E2E_ROOT_TOKEN],
        ['non-member', fixture.nonMemberToken],
      ] as const) {
        for (const fuzz of cases) {
          // A route that can end a token (the one it is called with, or another) gets a token of its own.
          let token: string = ownToken;
          if (route.path.startsWith('/api/v4/personal_access_tokens')) {
            token = await tokenFor(callerName === 'administrator' ? 1 : fixture.nonMemberId);
            if (route.method !== 'GET') state = await platformState();
          }
          requests += 1;
          const response = await withoutOverload(() => send(route, fuzz, token)).catch((error: unknown) => error as Error);
          if (response instanceof Error) {
            problems.push(
              `no answer (${response.message})  ${route.method} ${route.path} as ${callerName} with ${JSON.stringify(fuzz).slice(0, 300)}`,
            );
            continue;
          }
          const cell = `${route.method} ${route.path} as ${callerName} with ${JSON.stringify(fuzz).slice(0, 300)}: ${response.status} ${(response.text ?? '').slice(0, 200)}`;
          if (response.status >= 500) problems.push(`5xx  ${cell}`);
          else if (response.status >= 400 && !hasErrorBody(route, response)) problems.push(`no GitLab error body  ${cell}`);
          if (route.method === 'GET') continue;
          const after = await platformState();
          if (response.status >= 400 && after !== state) problems.push(`refused write changed state  ${cell}`);
          state = after;
        }
      }
    }
    process.stdout.write(`parameter fuzz: ${routes.length} routes, ${requests} requests, seed ${SEED}, ${problems.length} problems\n`);
    if (problems.length > 0)
      process.stdout.write(`parameter fuzz failed with seed ${SEED} (FUZZ_SEED=${SEED} reproduces it):\n${problems.join('\n')}\n`);
    expect(problems).toEqual([]);
  }, 600_000);
});
