/** Project and group access tokens against real PostgreSQL: their bots, roles, listing, revocation, rotation and refusals. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUTHENTICATION_CHANGED_HEADER, type AuthenticatedCaller } from '@platform/auth';
import { UnauthorizedError } from '@platform/errors';
import { callUnary } from '@platform/grpc';
import { adminCaller, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

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
  kit = await startIdentityHarness('access-tokens');
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
