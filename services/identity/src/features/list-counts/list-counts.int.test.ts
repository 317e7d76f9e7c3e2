/**
 * `list_counts` against the rows it counts: random sequences of changes made through the API
 * (users created, blocked and deleted, bots made by project access tokens, projects created,
 * made public, internal or private and deleted, groups and subgroups created, made public,
 * internal or private, transferred and deleted with their projects),
 * each made while the deltas are folded, or not. After every change each maintained count must
 * equal `count(*)` of its predicate, each viewer's project total the number of projects they
 * see, and the group list's total of an administrator and an anonymous caller the groups they see.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import { ANONYMOUS, visibleProjectCount, visibleProjectIds, type Viewer } from '../access/access-sql.ts';
import { VISIBILITIES } from '../access/namespace.entity.ts';
import { foldListCounts, groupsKey, maintainedCount, projectsKey, USERS_KEY } from '../access/list-counts.ts';

let kit: IdentityHarness;
let db: Kysely<unknown>;
let runs = 0;

beforeAll(async () => {
  kit = await startIdentityHarness('list_counts');
  db = kit.service.orm.em.getKysely() as unknown as Kysely<unknown>;
});

afterAll(async () => {
  await kit?.stop();
});

const admin = callerHeader(adminCaller());

interface World {
  prefix: string;
  users: Array<{ id: number; username: string; external: boolean }>;
  projects: number[];
  groups: number[];
  made: number;
}

/** Indexes into the world's lists, taken modulo their lengths when the change is made. */
const index = fc.nat({ max: 20 });
const visibility = fc.constantFrom(...VISIBILITIES);
const change = fc.oneof(
  fc.record({ kind: fc.constant('create user' as const), external: fc.boolean() }),
  fc.record({ kind: fc.constant('block user' as const), user: index }),
  fc.record({ kind: fc.constant('delete user' as const), user: index }),
  fc.record({ kind: fc.constant('create project' as const), user: index, inGroup: fc.option(index), visibility }),
  fc.record({ kind: fc.constant('change visibility' as const), project: index, visibility }),
  fc.record({ kind: fc.constant('delete project' as const), project: index }),
  fc.record({ kind: fc.constant('create bot' as const), project: index }),
  fc.record({ kind: fc.constant('create group' as const), visibility, parent: fc.option(index) }),
  fc.record({ kind: fc.constant('change group visibility' as const), group: index, visibility }),
  fc.record({ kind: fc.constant('transfer group' as const), group: index, to: fc.option(index) }),
  fc.record({ kind: fc.constant('delete group' as const), group: index }),
);
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

/** Makes one change through the API and records what it added; refusals leave the world as it was. */
async function apply(world: World, step: Change): Promise<number> {
  const at = <T>(items: T[], position: number): T | undefined => items[position % Math.max(items.length, 1)];
  world.made += 1;
  const name = `${world.prefix}-${world.made}`;
  switch (step.kind) {
    case 'create user': {
      const created = await kit.api
        .post('/api/v4/users')
        .set(admin)
        .send({ email: `${name}@example.com`, name, username: name, password: 'a-long-enough-password', external: step.external });
      if (created.status === 201) world.users.push({ id: created.body.id, username: name, external: step.external });
      return created.status;
    }
    case 'block user': {
      const user = at(world.users, step.user);
      return user ? (await kit.api.post(`/api/v4/users/${user.id}/block`).set(admin)).status : 404;
    }
    case 'delete user': {
      const user = at(world.users, step.user);
      if (!user) return 404;
      return (await kit.api.delete(`/api/v4/users/${user.id}`).query({ hard_delete: true }).set(admin)).status;
    }
    case 'create project': {
      const user = at(world.users, step.user);
      const group = step.inGroup === null ? undefined : at(world.groups, step.inGroup);
      const created = group
        ? await kit.api.post('/api/v4/projects').set(admin).send({ name, namespace_id: group, visibility: step.visibility })
        : user
          ? await kit.api
              .post('/api/v4/projects')
              .set(callerHeader(userCaller(user.id, user.username)))
              .send({ name, visibility: step.visibility })
          : undefined;
      if (created?.status === 201) world.projects.push(created.body.id);
      return created?.status ?? 404;
    }
    case 'change visibility': {
      const project = at(world.projects, step.project);
      return project ? (await kit.api.put(`/api/v4/projects/${project}`).set(admin).send({ visibility: step.visibility })).status : 404;
    }
    case 'delete project': {
      const project = at(world.projects, step.project);
      if (!project) return 404;
      const marked = await kit.api.delete(`/api/v4/projects/${project}`).set(admin);
      if (marked.status !== 202) return marked.status;
      // A project may be marked first; removing it for good names its path.
      const [found] = await kit.sql<{ full_path: string }>(
        "select n.full_path || '/' || p.path as full_path from projects p join namespaces n on n.id = p.namespace_id where p.id = $1",
        [project],
      );
      if (!found) return marked.status;
      return (
        await kit.api.delete(`/api/v4/projects/${project}`).query({ permanently_remove: true, full_path: found.full_path }).set(admin)
      ).status;
    }
    case 'create bot': {
      const project = at(world.projects, step.project);
      if (!project) return 404;
      return (
        await kit.api
          .post(`/api/v4/projects/${project}/access_tokens`)
          .set(admin)
          .send({ name, scopes: ['read_api'], expires_at: '2999-01-01' })
      ).status;
    }
    case 'create group': {
      const parent = step.parent === null ? undefined : at(world.groups, step.parent);
      const created = await kit.api
        .post('/api/v4/groups')
        .set(admin)
        .send({ name, path: name, visibility: step.visibility, ...(parent === undefined ? {} : { parent_id: parent }) });
      if (created.status === 201) world.groups.push(created.body.id);
      return created.status;
    }
    case 'change group visibility': {
      const group = at(world.groups, step.group);
      return group ? (await kit.api.put(`/api/v4/groups/${group}`).set(admin).send({ visibility: step.visibility })).status : 404;
    }
    case 'transfer group': {
      const group = at(world.groups, step.group);
      const to = step.to === null ? undefined : at(world.groups, step.to);
      if (!group) return 404;
      return (
        await kit.api
          .post(`/api/v4/groups/${group}/transfer`)
          .set(admin)
          .send(to === undefined ? {} : { group_id: to })
      ).status;
    }
    case 'delete group': {
      const group = at(world.groups, step.group);
      return group ? (await kit.api.delete(`/api/v4/groups/${group}`).set(admin)).status : 404;
    }
  }
}

/** A user of each kind, a group of each visibility and a project of each visibility in the public one. */
async function generate(world: World): Promise<void> {
  const steps: Change[] = [
    { kind: 'create user', external: false },
    { kind: 'create user', external: true },
    { kind: 'create user', external: false },
    ...VISIBILITIES.map((visibility): Change => ({ kind: 'create group', visibility, parent: null })),
  ];
  for (const step of steps) await apply(world, step);
  const publicGroup = world.groups.length - 1;
  for (const visibility of VISIBILITIES) await apply(world, { kind: 'create project', user: 0, inGroup: publicGroup, visibility });
  // A member of the private group, so that members see private projects too.
  await kit.api.post(`/api/v4/groups/${world.groups[0]}/members`).set(admin).send({ user_id: world.users[0]!.id, access_level: 30 });
}

/** Each maintained count beside the count of its predicate, and each viewer's project total beside what they see. */
async function differences(world: World) {
  const counted = [
    { key: USERS_KEY, predicate: sql`select count(*) from users` },
    ...VISIBILITIES.map((visibility) => ({
      key: projectsKey(visibility),
      predicate: sql`select count(*) from projects where visibility = ${visibility}`,
    })),
    ...VISIBILITIES.map((visibility) => ({
      key: groupsKey(visibility),
      predicate: sql`select count(*) from namespaces where kind = 'group' and visibility = ${visibility}`,
    })),
  ];
  const found: unknown[] = [];
  for (const { key, predicate } of counted) {
    const { rows } = await sql<{ maintained: string; actual: string }>`
      select ${maintainedCount([key])} as maintained, (${predicate}) as actual`.execute(db);
    if (rows[0]!.maintained !== rows[0]!.actual) found.push({ key, ...rows[0] });
  }
  const { rows: keys } = await sql<{ key: string }>`select distinct key from list_counts`.execute(db);
  const unknown = keys.map(({ key }) => key).filter((key) => !counted.some((count) => count.key === key));
  if (unknown.length > 0) found.push({ unknown });
  const viewers: Viewer[] = [
    ANONYMOUS,
    { kind: 'user', userId: 1, username: 'root', isAdmin: true, external: false },
    ...world.users.map(({ id, username, external }): Viewer => ({ kind: 'user', userId: id, username, isAdmin: false, external })),
  ];
  for (const viewer of viewers) {
    const { rows } = await sql<{ maintained: number; actual: number }>`
      select (${visibleProjectCount(viewer)})::integer as maintained,
        (select count(*)::integer from (${visibleProjectIds(viewer, sql`true`)}) seen) as actual`.execute(db);
    if (rows[0]!.maintained !== rows[0]!.actual) found.push({ viewer, ...rows[0] });
  }
  const groupLists = [
    { caller: 'root', header: admin, predicate: sql`true` },
    { caller: 'anonymous', header: callerHeader({ kind: 'anonymous' }), predicate: sql`visibility = 'public'` },
  ];
  for (const { caller, header, predicate } of groupLists) {
    const listed = await kit.api.get('/api/v4/groups?per_page=1').set(header);
    const { rows } = await sql<{ actual: string }>`select count(*) as actual from namespaces where kind = 'group' and ${predicate}`.execute(
      db,
    );
    if (listed.headers['x-total'] !== rows[0]!.actual) found.push({ groups: caller, listed: listed.headers['x-total'], ...rows[0] });
  }
  return found;
}

describe('list_counts', () => {
  it('equals the count of every counted predicate after any sequence of changes, folded meanwhile or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ step: change, fold: fc.boolean() }), { maxLength: 12 }), async (steps) => {
        runs += 1;
        const world: World = { prefix: `lc${runs}`, users: [], projects: [], groups: [], made: 0 };
        await generate(world);
        for (const { step, fold } of steps) {
          const [status] = await Promise.all([apply(world, step), fold ? foldListCounts(db) : undefined]);
          expect({ step, status: status < 500 }).toEqual({ step, status: true });
          expect({ after: step, differences: await differences(world) }).toEqual({ after: step, differences: [] });
        }
      }),
      // A failure names its changes; shrinking would replay them against a database that moved on.
      { numRuns: 30, endOnFailure: true },
    );
  }, 300_000);

  it('keeps every delta of writers committing while the counts are folded', async () => {
    const users = Array.from({ length: 12 }, (_, position) => `concurrent-${position}`);
    await Promise.all([...users.map((username) => kit.createUser(username)), ...Array.from({ length: 6 }, () => foldListCounts(db))]);
    await foldListCounts(db);
    const { rows } = await sql<{ rows: number; maintained: string; actual: string }>`
      select (select count(*)::integer from list_counts where key = ${USERS_KEY}) as rows,
        ${maintainedCount([USERS_KEY])} as maintained, (select count(*) from users) as actual`.execute(db);
    // Folded into one row, and still exact.
    expect(rows[0]).toEqual({ rows: 1, maintained: rows[0]!.actual, actual: rows[0]!.actual });
  });
});
