/**
 * Project and group access tokens against real PostgreSQL: their bots, roles, listing, revocation,
 * rotation and refusals, and the bots deleted with their project or group.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FixedApplicationSettings } from '@platform/admin-client';
import { AUTHENTICATION_CHANGED_HEADER, type AuthenticatedCaller } from '@platform/auth';
import { UnauthorizedError } from '@platform/errors';
import { callUnary } from '@platform/grpc';
import { adminCaller, userCaller, waitFor } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

const settings = new FixedApplicationSettings();
let kit: IdentityHarness;
let owner: AuthenticatedCaller;
let maintainer: AuthenticatedCaller;
let developer: AuthenticatedCaller;
let outsider: AuthenticatedCaller;
let groupId: number;
let projectId: number;

function authenticate(token: string) {
  return callUnary(kit.grpc.authenticate.bind(kit.grpc), { token, sudo: '' });
}

beforeAll(async () => {
  // Adjourned project deletions are looked for often, so that one comes due within a test.
  kit = await startIdentityHarness('access-tokens', { PROJECT_DELETION_INTERVAL_MS: '200' }, { applicationSettings: settings });
  owner = await kit.createCaller('rat-owner');
  maintainer = await kit.createCaller('rat-maintainer');
  developer = await kit.createCaller('rat-developer');
  outsider = await kit.createCaller('rat-outsider');
  groupId = (await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Bots', path: 'bots', visibility: 'private' })).body.id;
  projectId = (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Botapp', namespace_id: groupId })).body.id;
  for (const [user, level] of [
    [maintainer, 40],
    [developer, 30],
  ] as const) {
    await kit.api.post(`/api/v4/groups/${groupId}/members`).set(kit.as(owner)).send({ user_id: user.userId, access_level: level });
  }
});

afterAll(async () => {
  await kit?.stop();
});

describe('project access tokens', () => {
  it('gives each token a bot user, a member of the project with its role, as whom the token authenticates', async () => {
    const created = await kit.api
      .post(`/api/v4/projects/${projectId}/access_tokens`)
      .set(kit.as(maintainer))
      .send({ name: 'ci', scopes: ['read_repository', 'read_api'], access_level: 30, expires_at: '2999-01-01' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'ci',
      scopes: ['read_repository', 'read_api'],
      access_level: 30,
      resource_type: 'project',
      resource_id: projectId,
      expires_at: '2999-01-01',
      active: true,
      revoked: false,
    });
    expect(created.body.token).toMatch(/^glpat-/);

    const { user: bot } = await authenticate(created.body.token);
    expect(bot?.id).toBe(created.body.user_id);
    expect(bot?.username).toMatch(new RegExp(`^project_${projectId}_bot_[0-9a-f]{32}$`));
    expect(bot?.name).toBe('ci');
    const shownBot = await kit.api.get(`/api/v4/users/${bot?.id}`).set(kit.as(adminCaller()));
    expect(shownBot.body).toMatchObject({ email: `${bot?.username}@noreply.platform.test` });
    const member = await kit.api.get(`/api/v4/projects/${projectId}/members/${bot?.id}`).set(kit.as(owner));
    expect(member.body).toMatchObject({ username: bot?.username, access_level: 30 });
    // The bot sees the private project it belongs to.
    const asBot = kit.as(userCaller(bot!.id, bot!.username));
    expect((await kit.api.get(`/api/v4/projects/${projectId}`).set(asBot)).status).toBe(200);

    const listed = await kit.api.get(`/api/v4/projects/${projectId}/access_tokens`).set(kit.as(maintainer));
    expect(listed.body).toMatchObject([{ id: created.body.id, name: 'ci', access_level: 30, resource_type: 'project' }]);
    expect(listed.body[0]).not.toHaveProperty('token');
    const shown = await kit.api.get(`/api/v4/projects/${projectId}/access_tokens/${created.body.id}`).set(kit.as(owner));
    expect(shown.body).toMatchObject({ id: created.body.id, access_level: 30 });
  });

  it('rotates a token for the same bot and revokes one, its bot leaving the project', async () => {
    const created = await kit.api
      .post(`/api/v4/projects/${projectId}/access_tokens`)
      .set(kit.as(owner))
      .send({ name: 'deployer', scopes: ['api'] });
    expect(created.body.access_level).toBe(40);
    const rotated = await kit.api.post(`/api/v4/projects/${projectId}/access_tokens/${created.body.id}/rotate`).set(kit.as(maintainer));
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ name: 'deployer', user_id: created.body.user_id, access_level: 40, resource_id: projectId });
    expect(rotated.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(created.body.user_id));
    await expect(authenticate(created.body.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await authenticate(rotated.body.token)).user?.id).toBe(created.body.user_id);

    const revoked = await kit.api.delete(`/api/v4/projects/${projectId}/access_tokens/${rotated.body.id}`).set(kit.as(maintainer));
    expect(revoked.status).toBe(204);
    expect(revoked.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(created.body.user_id));
    await expect(authenticate(rotated.body.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await kit.api.get(`/api/v4/projects/${projectId}/members/${created.body.user_id}`).set(kit.as(owner))).status).toBe(404);
    const inactive = await kit.api.get(`/api/v4/projects/${projectId}/access_tokens?state=inactive`).set(kit.as(owner));
    expect(inactive.body.map((token: { id: number }) => token.id)).toEqual([rotated.body.id, created.body.id]);
    expect(inactive.body[0]).toMatchObject({ revoked: true, active: false, access_level: 40 });
  });

  it('rotates itself through /personal_access_tokens/self/rotate with the self_rotate scope, its bot keeping the project', async () => {
    const created = await kit.api
      .post(`/api/v4/projects/${projectId}/access_tokens`)
      .set(kit.as(owner))
      .send({ name: 'self-rotating', scopes: ['self_rotate', 'read_repository'], access_level: 30, expires_at: '2999-01-01' });
    expect(created.status).toBe(201);
    const { user: bot } = await authenticate(created.body.token);
    // The caller the gateway signs for a request made with the token.
    const asToken = (tokenId: number, scopes: string[]) => kit.as({ ...userCaller(bot!.id, bot!.username), scopes, tokenId });
    const rotated = await kit.api
      .post('/api/v4/personal_access_tokens/self/rotate')
      .set(asToken(created.body.id, created.body.scopes))
      .send({ expires_at: '2999-06-01' });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ name: 'self-rotating', user_id: bot!.id, scopes: ['self_rotate', 'read_repository'] });
    expect(rotated.body.expires_at).toBe('2999-06-01');
    expect(rotated.body.token).toMatch(/^glpat-/);
    await expect(authenticate(created.body.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await authenticate(rotated.body.token)).user?.id).toBe(bot!.id);
    const member = await kit.api.get(`/api/v4/projects/${projectId}/members/${bot!.id}`).set(kit.as(owner));
    expect(member.body).toMatchObject({ access_level: 30 });
    const listed = await kit.api.get(`/api/v4/projects/${projectId}/access_tokens/${rotated.body.id}`).set(kit.as(owner));
    expect(listed.body).toMatchObject({ access_level: 30, resource_type: 'project', resource_id: projectId });

    // self_rotate grants nothing else; a token with neither it nor api may not rotate itself.
    const shown = await kit.api.get(`/api/v4/projects/${projectId}`).set(asToken(rotated.body.id, ['self_rotate']));
    expect(shown.status).toBe(403);
    expect(shown.body).toMatchObject({ error: 'insufficient_scope' });
    const byId = await kit.api
      .post(`/api/v4/personal_access_tokens/${rotated.body.id}/rotate`)
      .set(asToken(rotated.body.id, ['self_rotate']));
    expect(byId.status).toBe(403);
    const readOnly = await kit.api.post('/api/v4/personal_access_tokens/self/rotate').set(asToken(rotated.body.id, ['read_api']));
    expect(readOnly.status).toBe(403);
    expect(readOnly.body).toMatchObject({ error: 'insufficient_scope', scope: 'api self_rotate' });
  });

  it("refuses as GitLab does: 404 outside, 401 reading or rotating below maintainer, 400 creating or granting beyond one's role", async () => {
    const tokens = `/api/v4/projects/${projectId}/access_tokens`;
    expect((await kit.api.get(tokens).set(kit.as(outsider))).status).toBe(404);
    expect((await kit.api.get(tokens).set(kit.as(developer))).status).toBe(401);
    const byDeveloper = await kit.api
      .post(tokens)
      .set(kit.as(developer))
      .send({ name: 'x', scopes: ['api'] });
    expect(byDeveloper.status).toBe(400);
    expect(byDeveloper.body).toEqual({ message: '400 Bad request - User does not have permission to create project access token' });
    const tooHigh = await kit.api
      .post(tokens)
      .set(kit.as(maintainer))
      .send({ name: 'x', scopes: ['api'], access_level: 50 });
    expect(tooHigh.body).toEqual({
      message: '400 Bad request - Access level of the token contains permissions not held by the creating user',
    });
    expect(
      (
        await kit.api
          .post(tokens)
          .set(kit.as(owner))
          .send({ name: 'x', scopes: ['sudo'] })
      ).body,
    ).toEqual({
      error: 'scopes[0] does not have a valid value',
    });
    expect(
      (
        await kit.api
          .post(tokens)
          .set(kit.as(owner))
          .send({ scopes: ['api'] })
      ).body,
    ).toEqual({ error: 'name is missing' });
    const unknown = await kit.api.get(`${tokens}/999999`).set(kit.as(owner));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Project Access Token Not Found' });
    const created = await kit.api
      .post(tokens)
      .set(kit.as(owner))
      .send({ name: 'kept', scopes: ['read_api'] });
    expect((await kit.api.post(`${tokens}/${created.body.id}/rotate`).set(kit.as(developer))).status).toBe(401);
    const deletedByDeveloper = await kit.api.delete(`${tokens}/${created.body.id}`).set(kit.as(developer));
    expect(deletedByDeveloper.status).toBe(400);
    expect((await authenticate(created.body.token)).user?.id).toBe(created.body.user_id);
    // A token's bot, a maintainer here, creates no tokens.
    const bot = kit.as(userCaller(created.body.user_id as number, 'bot'));
    const byBot = await kit.api
      .post(tokens)
      .set(bot)
      .send({ name: 'y', scopes: ['api'] });
    expect(byBot.body).toEqual({ message: '400 Bad request - User does not have permission to create project access token' });
  });
});

describe('group access tokens', () => {
  it('are managed by owners, with a bot in the group', async () => {
    const tokens = `/api/v4/groups/${groupId}/access_tokens`;
    expect(
      (
        await kit.api
          .post(tokens)
          .set(kit.as(maintainer))
          .send({ name: 'g', scopes: ['api'] })
      ).body,
    ).toEqual({
      message: '400 Bad request - User does not have permission to create group access token',
    });
    const created = await kit.api
      .post(tokens)
      .set(kit.as(owner))
      .send({ name: 'group-bot', scopes: ['api'], access_level: 50 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ access_level: 50, resource_type: 'group', resource_id: groupId });
    const { user: bot } = await authenticate(created.body.token);
    expect(bot?.username).toMatch(new RegExp(`^group_${groupId}_bot_`));
    expect((await kit.api.get(`/api/v4/groups/${groupId}/members/${bot?.id}`).set(kit.as(owner))).body.access_level).toBe(50);
    expect((await kit.api.get(tokens).set(kit.as(owner))).body.map((token: { id: number }) => token.id)).toEqual([created.body.id]);
    expect((await kit.api.get(tokens).set(kit.as(maintainer))).status).toBe(401);
    expect((await kit.api.get(`${tokens}/999999`).set(kit.as(owner))).body).toEqual({ message: '404 Group Access Token Not Found' });
  });
});

describe('access tokens of a deleted project or group', () => {
  it('authenticate no more, as GitLab deletes the bots with their project or group', async () => {
    const doomedGroup = (
      await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Doomed', path: 'doomed', visibility: 'private' })
    ).body.id;
    const doomedProject = (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Doomed app', namespace_id: groupId }))
      .body.id;
    const projectToken = await kit.api
      .post(`/api/v4/projects/${doomedProject}/access_tokens`)
      .set(kit.as(owner))
      .send({ name: 'doomed-project', scopes: ['api'] });
    const groupToken = await kit.api
      .post(`/api/v4/groups/${doomedGroup}/access_tokens`)
      .set(kit.as(owner))
      .send({ name: 'doomed-group', scopes: ['api'] });
    expect((await authenticate(projectToken.body.token)).user?.id).toBe(projectToken.body.user_id);
    expect((await authenticate(groupToken.body.token)).user?.id).toBe(groupToken.body.user_id);

    expect((await kit.api.delete(`/api/v4/projects/${doomedProject}`).set(kit.as(owner))).status).toBe(202);
    await expect(authenticate(projectToken.body.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await authenticate(groupToken.body.token)).user?.id).toBe(groupToken.body.user_id);
    expect((await kit.api.delete(`/api/v4/groups/${doomedGroup}`).set(kit.as(owner))).status).toBe(202);
    await expect(authenticate(groupToken.body.token)).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

describe('bots of a deleted project or group', () => {
  async function createToken(resource: string, name: string): Promise<{ id: number; token: string; user_id: number }> {
    const created = await kit.api
      .post(`/api/v4/${resource}/access_tokens`)
      .set(kit.as(owner))
      .send({ name, scopes: ['api'] });
    expect(created.status).toBe(201);
    return created.body;
  }

  /** The deletion events of these users, as the outbox holds them: who went, and to whom their contributions went. */
  async function userDeletions(userIds: number[]) {
    return (await kit.outboxEvents('identity.user.deleted'))
      .map((event) => ({
        userId: (event.data.user as { id: number }).id,
        hardDelete: event.data.hardDelete ?? false,
        ghostUserId: event.data.ghostUserId,
        actor: (event.actor as { id: number } | null)?.id,
      }))
      .filter((deletion) => userIds.includes(deletion.userId));
  }

  async function ghostUserId(): Promise<number> {
    const [ghost] = await kit.sql<{ id: number }>("select id from users where user_type = 'ghost'");
    return ghost?.id ?? 0;
  }

  async function usersLeft(userIds: number[]): Promise<number[]> {
    return (await kit.sql<{ id: number }>('select id from users where id = any($1::integer[])', [userIds])).map((row) => row.id);
  }

  async function tokensLeft(tokenIds: number[]): Promise<number[]> {
    return (await kit.sql<{ id: number }>('select id from personal_access_tokens where id = any($1::integer[])', [tokenIds])).map(
      (row) => row.id,
    );
  }

  it("go with their project, a revoked token's bot too, as deleted users with their tokens, naming them to the gateway", async () => {
    const doomed = (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Bot home', namespace_id: groupId })).body.id;
    const active = await createToken(`projects/${doomed}`, 'active');
    const revoked = await createToken(`projects/${doomed}`, 'revoked');
    expect((await kit.api.delete(`/api/v4/projects/${doomed}/access_tokens/${revoked.id}`).set(kit.as(owner))).status).toBe(204);
    const bystander = await createToken(`projects/${projectId}`, 'bystander');

    const deleted = await kit.api.delete(`/api/v4/projects/${doomed}`).set(kit.as(owner));
    expect(deleted.status).toBe(202);
    expect(deleted.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(`${active.user_id},${revoked.user_id}`);
    expect(await usersLeft([active.user_id, revoked.user_id, bystander.user_id])).toEqual([bystander.user_id]);
    expect(await tokensLeft([active.id, revoked.id])).toEqual([]);
    await expect(authenticate(active.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await authenticate(bystander.token)).user?.id).toBe(bystander.user_id);
    const ghost = await ghostUserId();
    expect(ghost).toBeGreaterThan(0);
    expect(await userDeletions([active.user_id, revoked.user_id])).toEqual([
      { userId: active.user_id, hardDelete: false, ghostUserId: ghost, actor: owner.userId },
      { userId: revoked.user_id, hardDelete: false, ghostUserId: ghost, actor: owner.userId },
    ]);
  });

  it("go with their group, its subgroups' and its projects' too", async () => {
    const top = (await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Bot tree', path: 'bot-tree' })).body.id;
    const sub = (await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Branch', path: 'branch', parent_id: top })).body.id;
    const leaf = (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Leaf', namespace_id: sub })).body.id;
    const bots = [
      await createToken(`groups/${top}`, 'top'),
      await createToken(`groups/${sub}`, 'sub'),
      await createToken(`projects/${leaf}`, 'leaf'),
    ];
    const botIds = bots.map((bot) => bot.user_id);

    const deleted = await kit.api.delete(`/api/v4/groups/${top}`).set(kit.as(owner));
    expect(deleted.status).toBe(202);
    expect(deleted.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(botIds.join(','));
    expect(await usersLeft(botIds)).toEqual([]);
    expect(await tokensLeft(bots.map((bot) => bot.id))).toEqual([]);
    for (const bot of bots) await expect(authenticate(bot.token)).rejects.toBeInstanceOf(UnauthorizedError);
    const ghost = await ghostUserId();
    expect(await userDeletions(botIds)).toEqual(
      botIds.map((userId) => ({ userId, hardDelete: false, ghostUserId: ghost, actor: owner.userId })),
    );
  });

  it('stay while their project is only marked for deletion, and go when the adjourned deletion comes due', async () => {
    settings.set({ deletionAdjournedPeriod: 3 });
    try {
      const doomed = (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Adjourned', namespace_id: groupId })).body.id;
      const bot = await createToken(`projects/${doomed}`, 'adjourned');
      const marked = await kit.api.delete(`/api/v4/projects/${doomed}`).set(kit.as(owner));
      expect(marked.status).toBe(202);
      expect((await authenticate(bot.token)).user?.id).toBe(bot.user_id);

      await kit.sql("update projects set marked_for_deletion_at = now() - interval '3 days 1 minute' where id = $1", [doomed]);
      await waitFor(async () => ((await usersLeft([bot.user_id])).length === 0 ? true : undefined));
      expect(await tokensLeft([bot.id])).toEqual([]);
      // The deletion is the marker's, as the project's own.
      expect(await userDeletions([bot.user_id])).toEqual([
        { userId: bot.user_id, hardDelete: false, ghostUserId: await ghostUserId(), actor: owner.userId },
      ]);
    } finally {
      settings.set({ deletionAdjournedPeriod: 0 });
    }
  });
});
