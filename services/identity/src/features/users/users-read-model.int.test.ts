/** The users' read path against real PostgreSQL: GETs answer from the read model, without entities. */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PostgresQueryCompiler } from 'kysely';
import { callUnary } from '@platform/grpc';
import { adminCaller, countHydrations, userCaller } from '@platform/testing';
import type { Caller } from '@platform/auth';
import type { GetUsersResponse } from '@platform/proto/identity/v1';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import { Migration20261127062500_user_bio_html } from '../../migrations/Migration20261127062500_user_bio_html.ts';

let kit: IdentityHarness;
const compileQuery = PostgresQueryCompiler.prototype.compileQuery;
const admin = adminCaller();
let member: Caller;
let memberId: number;

beforeAll(async () => {
  kit = await startIdentityHarness('users-read-model');
  const created = await kit.createUser('read-model-user', { extern_uid: 'rm-1', provider: 'ldapmain' });
  memberId = created.id;
  member = userCaller(memberId, 'read-model-user');
  await kit.api.put(`/api/v4/users/${memberId}/custom_attributes/team`).set(kit.as(admin)).send({ value: 'blue' });
});

afterAll(async () => {
  await kit?.stop();
});

describe('the users read path', () => {
  it('answers GET /user, /users/:id and /users without hydrating a single entity', async () => {
    const requests: Array<[Caller, string]> = [
      [admin, '/api/v4/user'],
      [member, '/api/v4/user'],
      [admin, `/api/v4/users/${memberId}?with_custom_attributes=true`],
      [member, `/api/v4/users/${memberId}`],
      [{ kind: 'anonymous' }, `/api/v4/users/${memberId}`],
      [admin, '/api/v4/users?per_page=20&with_custom_attributes=true'],
      [admin, '/api/v4/users?pagination=keyset&per_page=1'],
      [member, '/api/v4/users?per_page=20&search=read-model'],
    ];
    const statuses: number[] = [];
    const hydrations = await countHydrations(async () => {
      for (const [caller, path] of requests) statuses.push((await kit.api.get(path).set(kit.as(caller))).status);
    });
    expect(statuses).toEqual(requests.map(() => 200));
    expect(hydrations).toBe(0);
  });

  it('answers GetUsers, which every merge request list asks, without hydrating a single entity', async () => {
    const grpc = kit.grpc;
    let response: GetUsersResponse | undefined;
    const hydrations = await countHydrations(async () => {
      response = await callUnary(grpc.getUsers.bind(grpc), { ids: [memberId, 1, memberId, 424242, 2 ** 40] }, { caller: member });
    });
    expect(response?.users.map((user) => user.username).sort()).toEqual(['read-model-user', 'root']);
    expect(response?.users.find((user) => user.id === memberId)).toMatchObject({
      name: expect.any(String),
      webUrl: 'http://platform.test/read-model-user',
    });
    expect(hydrations).toBe(0);
  });

  it('sends the views other than the basic one as the JSON text PostgreSQL built, without parsing it', async () => {
    // `json_build_object` writes `"key" : value`, which JSON.stringify never does.
    const built = /^\[?\{"id" : \d+, "username" : "/;
    for (const [caller, path] of [
      [admin, '/api/v4/user'],
      [member, '/api/v4/user'],
      [admin, `/api/v4/users/${memberId}`],
      [member, `/api/v4/users/${memberId}`],
      [admin, '/api/v4/users?per_page=2'],
    ] as Array<[Caller, string]>) {
      const response = await kit.api.get(path).set(kit.as(caller));
      expect([path, response.headers['content-type'], built.test(response.text)]).toEqual([path, 'application/json', true]);
    }
  });

  it('compiles the statement of an unfiltered list once per shape, not on every request', async () => {
    const lists = ['/api/v4/users?per_page=20', '/api/v4/users?per_page=20&page=2', '/api/v4/users?per_page=20&order_by=name&sort=asc'];
    const callers = [admin, member];
    for (const caller of callers) for (const path of lists) await kit.api.get(path).set(kit.as(caller)).expect(200);
    const compiled: string[] = [];
    const compile = jest.spyOn(PostgresQueryCompiler.prototype, 'compileQuery').mockImplementation(function (
      this: PostgresQueryCompiler,
      ...args
    ) {
      const query = compileQuery.apply(this, args);
      compiled.push(query.sql);
      return query;
    });
    try {
      for (const caller of callers) for (const path of lists) await kit.api.get(path).set(kit.as(caller)).expect(200);
    } finally {
      compile.mockRestore();
    }
    expect(compiled.filter((text) => text.includes('from users u'))).toEqual([]);
  });

  it("keeps a bio's HTML with the bio: rendered when it is written, read with the views", async () => {
    const created = await kit.createUser('read-model-bio', { bio: 'a *first* bio' });
    await kit.api.put(`/api/v4/users/${created.id}`).set(kit.as(admin)).send({ bio: 'a **second** bio' });
    const read = await kit.api.get(`/api/v4/users/${created.id}`).set(kit.as(member));
    expect(read.body).toMatchObject({ bio: 'a **second** bio', bio_html: '<p>a <strong>second</strong> bio</p>' });
    const [stored] = await kit.sql<{ bio_html: string }>('select bio_html from users where id = $1', [created.id]);
    expect(stored?.bio_html).toBe('<p>a <strong>second</strong> bio</p>');
  });

  it('shows an administrator the same user whether it was just written (an entity) or read (a row)', async () => {
    const created = await kit.createUser('read-model-same', { extern_uid: 'rm-2', provider: 'github', bio: 'some *bio*', note: 'a note' });
    const read = await kit.api.get(`/api/v4/users/${created.id}`).set(kit.as(admin));
    expect(read.body).toEqual(created);
    expect(JSON.stringify(read.body)).toBe(JSON.stringify(created));
    const listed = await kit.api.get(`/api/v4/users?username=read-model-same`).set(kit.as(admin));
    const { plan: _plan, trial: _trial, sign_in_count: _count, ...listView } = created;
    expect(listed.body).toEqual([listView]);
  });

  it('renders the bios written before their HTML was kept, when the migration adds the column', async () => {
    const written = await kit.createUser('read-model-old-bio', { bio: 'an *old* bio' });
    await kit.sql('alter table users drop column bio_html');
    const { orm } = kit.service;
    const migration = new Migration20261127062500_user_bio_html(orm.em.getDriver(), orm.config);
    await migration.up();
    for (const query of migration.getQueries()) await kit.sql(String(query));
    const rows = await kit.sql<{ username: string; bio_html: string }>(
      `select username, bio_html from users where username in ('root', 'read-model-old-bio') order by username`,
    );
    expect(rows).toEqual([
      { username: 'read-model-old-bio', bio_html: '<p>an <em>old</em> bio</p>' },
      { username: 'root', bio_html: '' },
    ]);
    expect((await kit.api.get(`/api/v4/users/${written.id}`).set(kit.as(member))).body.bio_html).toBe('<p>an <em>old</em> bio</p>');
  });
});
