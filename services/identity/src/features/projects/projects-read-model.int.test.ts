/** The projects' read path against real PostgreSQL: GETs answer from the read model, without entities. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callUnary } from '@platform/grpc';
import { adminCaller, countHydrations } from '@platform/testing';
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import { Kysely, PostgresDialect, sql, type KyselyPlugin } from 'kysely';
import pg from 'pg';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import { projectAccessLevel, projectVisibleTo, type Viewer } from '../access/access-sql.ts';
import { ProjectsReadModel } from './projects-read-model.ts';

let kit: IdentityHarness;
const admin = adminCaller();
const anonymous: Caller = { kind: 'anonymous' };
let owner: AuthenticatedCaller;
let developer: AuthenticatedCaller;
let outsider: AuthenticatedCaller;
let crewId: number;
let appId: number;
let personalId: number;
/** The developer's fork of `rm-proj/app`, as its creation answered it. */
let fork: Record<string, unknown>;

async function post(caller: Caller, path: string, body: Record<string, unknown>) {
  const response = await kit.api.post(path).set(kit.as(caller)).send(body);
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown> & { id: number };
}

beforeAll(async () => {
  kit = await startIdentityHarness('projects-read-model');
  owner = await kit.createCaller('rmp-owner');
  developer = await kit.createCaller('rmp-developer');
  outsider = await kit.createCaller('rmp-outsider');
  const group = await post(owner, '/api/v4/groups', { name: 'Read Projects', path: 'rm-proj', visibility: 'public' });
  crewId = (await post(owner, '/api/v4/groups', { name: 'Read Crew', path: 'rm-crew', visibility: 'internal' })).id;
  appId = (await post(owner, '/api/v4/projects', { name: 'App', path: 'app', namespace_id: group.id, visibility: 'public', topics: ['x'] }))
    .id;
  personalId = (await post(owner, '/api/v4/projects', { name: 'Mine', path: 'mine', visibility: 'private' })).id;
  await post(owner, `/api/v4/projects/${appId}/members`, { user_id: developer.userId, access_level: 30 });
  await post(owner, `/api/v4/projects/${appId}/share`, { group_id: crewId, group_access: 20 });
  await post(owner, `/api/v4/projects/${appId}/star`, {});
  await kit.api.put(`/api/v4/projects/${appId}/custom_attributes/tier`).set(kit.as(admin)).send({ value: 'gold' });
  fork = await post(developer, `/api/v4/projects/${appId}/fork`, {});
});

afterAll(async () => {
  await kit?.stop();
});

describe('the projects read path', () => {
  it('answers CheckAccess for a project without hydrating a single entity, with the summary ResolveProject gives', async () => {
    const grpc = kit.grpc;
    const checks: Array<[AuthenticatedCaller, string, number]> = [
      [admin as AuthenticatedCaller, String(appId), 0],
      [owner, 'rm-proj/app', 50],
      [developer, String(appId), 30],
      [developer, String(fork.id as number), 50],
      [outsider, String(appId), 0],
    ];
    const answers: Awaited<ReturnType<typeof checkAccess>>[] = [];
    const checkAccess = (caller: AuthenticatedCaller, idOrPath: string) =>
      callUnary(grpc.checkAccess.bind(grpc), { minAccessLevel: 30, projectIdOrPath: idOrPath }, { caller });
    const hydrations = await countHydrations(async () => {
      for (const [caller, idOrPath] of checks) answers.push(await checkAccess(caller, idOrPath));
      await expect(checkAccess(outsider, String(personalId))).rejects.toMatchObject({ name: 'NotFoundError' });
    });
    expect(hydrations).toBe(0);
    expect(answers.map((answer) => [answer.accessLevel, answer.allowed, answer.isAdmin])).toEqual(
      checks.map(([caller, , level]) => [level, caller === admin || level >= 30, caller === admin]),
    );
    for (const [index, [, idOrPath]] of checks.entries()) {
      const resolved = await callUnary(grpc.resolveProject.bind(grpc), { idOrPath });
      expect(answers[index]?.project).toEqual(resolved.project);
    }
  });

  it('answers GET /projects/:id and the project lists without hydrating a single entity', async () => {
    const requests: Array<[Caller, string]> = [
      [admin, `/api/v4/projects/${appId}?with_custom_attributes=true`],
      [owner, '/api/v4/projects/rm-proj%2Fapp'],
      [owner, `/api/v4/projects/${personalId}`],
      [developer, `/api/v4/projects/${fork.id as number}`],
      [anonymous, `/api/v4/projects/${appId}`],
      [admin, '/api/v4/projects?per_page=20&with_custom_attributes=true'],
      [developer, '/api/v4/projects?membership=true'],
      [outsider, '/api/v4/projects?simple=true'],
      [owner, '/api/v4/projects?pagination=keyset&per_page=1'],
      [owner, '/api/v4/projects?min_access_level=40&order_by=star_count'],
      [anonymous, '/api/v4/projects?per_page=20&search=app'],
      [owner, `/api/v4/projects/${appId}/forks`],
    ];
    const statuses: number[] = [];
    const hydrations = await countHydrations(async () => {
      for (const [caller, path] of requests) statuses.push((await kit.api.get(path).set(kit.as(caller))).status);
    });
    expect(statuses).toEqual(requests.map(() => 200));
    expect(hydrations).toBe(0);
  });

  it('nests the namespace, owner, counts, fork source, shares and custom attributes in the project read', async () => {
    const app = await kit.api.get(`/api/v4/projects/${appId}?with_custom_attributes=true`).set(kit.as(admin));
    expect(app.body).toMatchObject({
      name_with_namespace: 'Read Projects / App',
      namespace: { full_path: 'rm-proj', kind: 'group', parent_id: null },
      star_count: 1,
      forks_count: 1,
      topics: ['x'],
      custom_attributes: [{ key: 'tier', value: 'gold' }],
      shared_with_groups: [
        { group_id: crewId, group_name: 'Read Crew', group_full_path: 'rm-crew', group_access_level: 20, expires_at: null },
      ],
      repository_storage: 'default',
      marked_for_deletion_at: null,
    });
    expect(app.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(app.body).not.toHaveProperty('owner');
    const forked = await kit.api.get(`/api/v4/projects/${fork.id as number}`).set(kit.as(developer));
    expect(forked.body).toMatchObject({
      owner: { username: 'rmp-developer' },
      forked_from_project: { id: appId, path_with_namespace: 'rm-proj/app', star_count: 1, forks_count: 1 },
      permissions: { project_access: { access_level: 50, notification_level: 3 }, group_access: null },
    });
    expect(forked.body).not.toHaveProperty('repository_storage');
    const mine = await kit.api.get(`/api/v4/projects/${personalId}`).set(kit.as(outsider));
    expect(mine.status).toBe(404);
  });

  it('answers a write with the same bytes a GET then reads', async () => {
    const read = await kit.api.get(`/api/v4/projects/${fork.id as number}`).set(kit.as(developer));
    // Only the GET shows the caller's permissions, and what they allow.
    const { permissions: _permissions, can_create_merge_request_in: readAllows, ...readRest } = read.body as Record<string, unknown>;
    const { can_create_merge_request_in: writtenAllows, ...writtenRest } = fork;
    expect([readAllows, writtenAllows]).toEqual([true, false]);
    expect(JSON.stringify(readRest)).toBe(JSON.stringify(writtenRest));
  });

  it('shows allow_merge_on_skipped_pipeline, null until it is set, and carries it in the summary services merge by', async () => {
    const before = await kit.api.get(`/api/v4/projects/${personalId}`).set(kit.as(owner));
    expect(before.body.allow_merge_on_skipped_pipeline).toBeNull();
    const updated = await kit.api
      .put(`/api/v4/projects/${personalId}`)
      .set(kit.as(owner))
      .send({ allow_merge_on_skipped_pipeline: true, only_allow_merge_if_pipeline_succeeds: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ allow_merge_on_skipped_pipeline: true, only_allow_merge_if_pipeline_succeeds: true });
    expect((await kit.api.get(`/api/v4/projects/${personalId}`).set(kit.as(owner))).body.allow_merge_on_skipped_pipeline).toBe(true);
    const resolved = await callUnary(kit.grpc.resolveProject.bind(kit.grpc), { idOrPath: String(personalId) });
    expect(resolved.project).toMatchObject({ allowMergeOnSkippedPipeline: true, onlyAllowMergeIfPipelineSucceeds: true });
    expect(
      (await kit.api.put(`/api/v4/projects/${personalId}`).set(kit.as(owner)).send({ allow_merge_on_skipped_pipeline: 'maybe' })).status,
    ).toBe(400);
  });

  it("answers CheckAccess's summary in one statement that reads the caller too, by the rules the lists use", async () => {
    const external = await kit.createCaller('rmp-external', { external: true });
    const blocked = await kit.createCaller('rmp-blocked');
    const internalId = (
      await post(owner, '/api/v4/projects', { name: 'Inner', path: 'inner', namespace_id: crewId, visibility: 'internal' })
    ).id;
    await post(owner, `/api/v4/projects/${personalId}/members`, { user_id: blocked.userId, access_level: 30 });
    await kit.sql(`update users set state = 'blocked' where id = $1`, [blocked.userId]);
    let statements = 0;
    // Counted by their results: a compiled statement is executed without being transformed.
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    };
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: kit.databaseUrl, max: 1 }) }) });
    const reads = new ProjectsReadModel(db.withPlugin(counting));
    /** The viewer as the other access checks read it (`AccessPolicy.viewerFor`). */
    const viewerOf = async (userId: number): Promise<Viewer> => {
      const [user] = await kit.sql<{ username: string; is_admin: boolean; external: boolean }>(
        `select username, is_admin, external from users where id = $1 and state = 'active'`,
        [userId],
      );
      return user
        ? { kind: 'user', userId, username: user.username, isAdmin: user.is_admin, external: user.external }
        : { kind: 'anonymous' };
    };
    try {
      for (const userId of [0, admin.userId, owner.userId, developer.userId, outsider.userId, external.userId, blocked.userId]) {
        const viewer = await viewerOf(userId);
        for (const projectId of [appId, internalId, personalId, fork.id as number]) {
          const expected = await sql<{ level: number; visible: boolean }>`select ${projectAccessLevel(viewer)} as level,
            ${projectVisibleTo(viewer)} as visible from projects p where p.id = ${projectId}`.execute(db);
          const [rule] = expected.rows;
          statements = 0;
          const found = await reads.accessSummary(userId, projectId);
          expect([userId, projectId, statements, found && [found.accessLevel, found.isAdmin]]).toEqual([
            userId,
            projectId,
            1,
            rule?.visible ? [rule.level, viewer.kind === 'user' && viewer.isAdmin] : undefined,
          ]);
        }
      }
      expect((await reads.accessSummary(outsider.userId, personalId, ({ id }) => id === personalId))?.accessLevel).toBe(0);
    } finally {
      await db.destroy();
    }
  });

  it("leaves out of a page a project hidden from the viewer between the page's ids and its columns", async () => {
    const hideAfterIds: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (statements++ === 0) await kit.sql(`update projects set visibility = 'private' where id = $1`, [appId]);
        return args.result;
      },
    };
    let statements = 0;
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: kit.databaseUrl, max: 1 }) }),
      plugins: [hideAfterIds],
    });
    const viewer = { kind: 'user', userId: outsider.userId, username: outsider.username, isAdmin: false, external: false } as const;
    try {
      const page = await new ProjectsReadModel(db).list({
        viewer,
        filter: { idAfter: appId - 1, idBefore: appId + 1 },
        order: { by: 'id', sort: 'asc' },
        window: { offset: 0, limit: 20 },
        read: { view: 'full' },
      });
      expect([statements, page.items]).toEqual([2, []]);
    } finally {
      await kit.sql(`update projects set visibility = 'public' where id = $1`, [appId]);
      await db.destroy();
    }
  });
});
