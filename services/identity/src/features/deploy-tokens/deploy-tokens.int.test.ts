/** Deploy tokens against real PostgreSQL: project, group and instance lists, creation, deletion and refusals. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthenticatedCaller } from '@platform/auth';
import { UnauthorizedError } from '@platform/errors';
import { callUnary } from '@platform/grpc';
import { adminCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
let owner: AuthenticatedCaller;
let developer: AuthenticatedCaller;
let outsider: AuthenticatedCaller;
let groupId: number;
let projectId: number;

beforeAll(async () => {
  kit = await startIdentityHarness('deploy-tokens');
  owner = await kit.createCaller('dt-owner');
  developer = await kit.createCaller('dt-developer');
  outsider = await kit.createCaller('dt-outsider');
  groupId = (await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Deploys', path: 'deploys', visibility: 'private' })).body
    .id;
  projectId = (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Shipped', namespace_id: groupId })).body.id;
  await kit.api.post(`/api/v4/groups/${groupId}/members`).set(kit.as(owner)).send({ user_id: developer.userId, access_level: 30 });
});

afterAll(async () => {
  await kit?.stop();
});

describe('deploy tokens', () => {
  it('creates project and group tokens shown once, lists, shows and deletes them', async () => {
    const created = await kit.api
      .post(`/api/v4/projects/${projectId}/deploy_tokens`)
      .set(kit.as(owner))
      .send({ name: 'ci', scopes: ['read_repository', 'read_package_registry'], expires_at: '2999-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'ci',
      username: `gitlab+deploy-token-${created.body.id}`,
      expires_at: '2999-01-01T00:00:00.000Z',
      scopes: ['read_repository', 'read_package_registry'],
      revoked: false,
      expired: false,
      token: expect.stringMatching(/^gldt-/),
    });
    const named = await kit.api
      .post(`/api/v4/groups/${groupId}/deploy_tokens`)
      .set(kit.as(owner))
      .send({ name: 'registry', scopes: 'read_registry,write_registry', username: 'my-deployer' });
    expect(named.body).toMatchObject({ username: 'my-deployer', scopes: ['read_registry', 'write_registry'], expires_at: null });

    const projectTokens = await kit.api.get(`/api/v4/projects/${projectId}/deploy_tokens`).set(kit.as(owner));
    expect(projectTokens.body.map((token: { id: number }) => token.id)).toEqual([created.body.id]);
    expect(projectTokens.body[0]).not.toHaveProperty('token');
    const groupTokens = await kit.api.get(`/api/v4/groups/${groupId}/deploy_tokens`).set(kit.as(owner));
    expect(groupTokens.body.map((token: { id: number }) => token.id)).toEqual([named.body.id]);
    const all = await kit.api.get('/api/v4/deploy_tokens?active=true').set(kit.as(adminCaller()));
    expect(all.body.map((token: { id: number }) => token.id)).toEqual(expect.arrayContaining([created.body.id, named.body.id]));
    expect((await kit.api.get(`/api/v4/projects/${projectId}/deploy_tokens/${created.body.id}`).set(kit.as(owner))).body).toMatchObject({
      name: 'ci',
    });
    // A group's token is not the project's.
    expect((await kit.api.get(`/api/v4/projects/${projectId}/deploy_tokens/${named.body.id}`).set(kit.as(owner))).status).toBe(404);

    // A deploy token is no user's token: the API does not take it.
    await expect(callUnary(kit.grpc.authenticate.bind(kit.grpc), { token: created.body.token, sudo: '' })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );

    expect((await kit.api.delete(`/api/v4/projects/${projectId}/deploy_tokens/${created.body.id}`).set(kit.as(owner))).status).toBe(204);
    expect((await kit.api.get(`/api/v4/projects/${projectId}/deploy_tokens`).set(kit.as(owner))).body).toEqual([]);

    // Creations and deletions are recorded for audit, with the project or group and who did it (proto3 JSON leaves out zeros).
    const recorded = (await kit.outboxEvents('identity.deploy_token.created')).map((event) => ({
      data: event.data,
      actor: (event.actor as { id: number } | null)?.id,
    }));
    expect(recorded).toContainEqual({
      data: {
        token: {
          id: created.body.id,
          name: 'ci',
          username: `gitlab+deploy-token-${created.body.id}`,
          scopes: ['read_repository', 'read_package_registry'],
          expiresAt: '2999-01-01T00:00:00.000Z',
        },
        owner: { projectId, fullPath: 'deploys/shipped' },
      },
      actor: owner.userId,
    });
    expect(recorded).toContainEqual({
      data: {
        token: { id: named.body.id, name: 'registry', username: 'my-deployer', scopes: ['read_registry', 'write_registry'] },
        owner: { groupId, fullPath: 'deploys' },
      },
      actor: owner.userId,
    });
    const destroyed = await kit.outboxEvents('identity.deploy_token.destroyed');
    expect(destroyed.map((event) => event.data)).toEqual([
      expect.objectContaining({ token: expect.objectContaining({ id: created.body.id }), owner: expect.objectContaining({ projectId }) }),
    ]);
    expect((await kit.api.delete(`/api/v4/projects/${projectId}/deploy_tokens/${created.body.id}`).set(kit.as(owner))).status).toBe(404);
  });

  it('is for maintainers: 403 below, 404 outside, administrators only for the instance list, 400 for bad input', async () => {
    const tokens = `/api/v4/projects/${projectId}/deploy_tokens`;
    expect((await kit.api.get(tokens).set(kit.as(developer))).status).toBe(403);
    expect(
      (
        await kit.api
          .post(tokens)
          .set(kit.as(developer))
          .send({ name: 'x', scopes: ['read_repository'] })
      ).status,
    ).toBe(403);
    expect((await kit.api.get(tokens).set(kit.as(outsider))).status).toBe(404);
    expect((await kit.api.get('/api/v4/deploy_tokens').set(kit.as(owner))).status).toBe(403);
    expect(
      (
        await kit.api
          .post(tokens)
          .set(kit.as(owner))
          .send({ name: 'x', scopes: ['api'] })
      ).body,
    ).toEqual({
      error: 'scopes[0] does not have a valid value',
    });
    expect((await kit.api.post(tokens).set(kit.as(owner)).send({ name: 'x' })).body).toEqual({ error: 'scopes is missing' });
    const badName = await kit.api
      .post(tokens)
      .set(kit.as(owner))
      .send({ name: 'x', scopes: ['read_repository'], username: 'no spaces' });
    expect(badName.status).toBe(400);
    expect(badName.body).toEqual({ message: "Username can contain only letters, digits, '_', '-', '+', and '.'" });
  });
});
