/** Identity against real PostgreSQL and Kafka: HTTP, gRPC, the outbox and its relay. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Kafka, logLevel } from 'kafkajs';
import { callUnary } from '@platform/grpc';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { IdentityServiceClient } from '@platform/proto/identity/v1';
import { UserCreated } from '@platform/proto/identity/v1/events';
import { adminCaller, callerHeader, gitlabSchemaErrors, testEnvironment, userCaller, waitFor } from '@platform/testing';
import { startIdentityHarness, TEST_ROOT_TOKEN as ROOT_TOKEN, type IdentityHarness } from './testing/identity-harness.ts';

let harness: IdentityHarness;
let database: { url: string };
let api: IdentityHarness['api'];
let grpcClient: IdentityServiceClient;

async function outboxCount(): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>('select count(*) from outbox');
    return Number(result.rows[0]?.count);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  harness = await startIdentityHarness('identity');
  database = { url: harness.databaseUrl };
  api = harness.api;
  grpcClient = harness.grpc;
});

afterAll(async () => {
  await harness?.stop();
});

const newUser = (username: string) => ({
  email: `${username}@example.com`,
  name: `User ${username}`,
  username,
  password: 'a-long-enough-password',
});

describe('the caller header', () => {
  it('is required on every API request', async () => {
    const response = await api.get('/api/v4/user');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });

  it('is refused when not signed with the gateway secret', async () => {
    const forged = Buffer.from(JSON.stringify({ caller: adminCaller(), iat: Date.now() })).toString('base64url');
    const response = await api.get('/api/v4/user').set('x-platform-caller', `${forged}.AAAA`);
    expect(response.status).toBe(401);
  });
});

describe('POST /users', () => {
  it('creates a user, answering with the administrator view', async () => {
    const response = await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(newUser('grace'));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      username: 'grace',
      email: 'grace@example.com',
      state: 'active',
      is_admin: false,
      bio: '',
      private_profile: false,
      web_url: 'http://platform.test/grace',
      identities: [],
    });
    expect(response.body).not.toHaveProperty('password');
    expect(response.body).not.toHaveProperty('password_hash');
    expect(gitlabSchemaErrors('user/admin.json', response.body, { optional: ['pronouns'] })).toEqual([]);
    const namespace = await api.get(`/api/v4/namespaces/${response.body.namespace_id}`).set(callerHeader(adminCaller()));
    expect(namespace.body).toMatchObject({ kind: 'user', path: 'grace', full_path: 'grace' });
  });

  it('publishes identity.user.created through the outbox to Kafka', async () => {
    const response = await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(newUser('hopper'));
    const userId = response.body.id as number;
    const kafka = new Kafka({ brokers: testEnvironment().kafkaBrokers, logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: `identity-test-${Date.now()}` });
    const seen: Array<{ type: string; aggregateId: string; data: unknown; actor: unknown }> = [];
    await consumer.connect();
    await consumer.subscribe({ topics: ['identity.events'], fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(JSON.parse(String(message.value))) });
    try {
      // Other test files publish on the same topic from their own databases, where ids repeat.
      const event = await waitFor(
        async () =>
          seen.find(
            (candidate) =>
              candidate.aggregateId === String(userId) &&
              candidate.type === 'identity.user.created' &&
              UserCreated.fromJSON(candidate.data).user?.username === 'hopper',
          ),
        { what: 'the user.created event on Kafka' },
      );
      expect(event.type).toBe('identity.user.created');
      expect(UserCreated.fromJSON(event.data).user).toMatchObject({ id: userId, username: 'hopper' });
      expect(event.actor).toMatchObject({ id: 1, username: 'root' });
    } finally {
      await consumer.disconnect();
    }
  });

  it('names a missing parameter the way GitLab does', async () => {
    const response = await api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .send({ name: 'x', username: 'x', password: 'long-password' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'email is missing' });
  });

  it('requires a password or one of the password flags', async () => {
    const { password: _password, ...withoutPassword } = newUser('nopass');
    const response = await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(withoutPassword);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/at least one parameter must be provided/);
    const flagged = await api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .send({ ...withoutPassword, reset_password: true });
    expect(flagged.status).toBe(201);
  });

  it('rejects a short password field by field', async () => {
    const response = await api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .send({ ...newUser('shorty'), password: 'short' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
  });

  it('answers 409 for a taken username or email and writes no event', async () => {
    await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(newUser('turing'));
    const before = await outboxCount();
    const sameUsername = await api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .send({ ...newUser('turing'), email: 'other@example.com' });
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body).toEqual({ message: 'Username has already been taken' });
    const sameEmail = await api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .send({ ...newUser('alan'), email: 'TURING@example.com' });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ message: 'Email has already been taken' });
    expect(await outboxCount()).toBe(before);
  });

  it('refuses a username that a group already holds as its path', async () => {
    const group = await api.post('/api/v4/groups').set(callerHeader(adminCaller())).send({ name: 'Taken', path: 'taken-path' });
    expect(group.status).toBe(201);
    const response = await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(newUser('taken-path'));
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: 'Username has already been taken' });
  });

  it('is for administrators only', async () => {
    const response = await api
      .post('/api/v4/users')
      .set(callerHeader(userCaller(2, 'grace')))
      .send(newUser('mallory'));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
  });

  it('never answers 500 to malformed input', async () => {
    const response = await api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .set('content-type', 'application/json')
      .send('{"email": ');
    expect(response.status).toBe(400);
    const wrongTypes = await api
      .post('/api/v4/users')
      .set(callerHeader(adminCaller()))
      .send({ ...newUser('typed'), admin: 'maybe', projects_limit: 'many' });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.error).toBe('admin is invalid, projects_limit is invalid');
  });
});

describe('GET /users/:id', () => {
  it('shows the public view to users and the administrator view to administrators', async () => {
    const created = await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(newUser('lovelace'));
    const asUser = await api.get(`/api/v4/users/${created.body.id}`).set(callerHeader(userCaller(99, 'someone')));
    expect(asUser.status).toBe(200);
    expect(asUser.body).toMatchObject({ username: 'lovelace', bio: '', job_title: '' });
    expect(asUser.body).not.toHaveProperty('email');
    expect(asUser.body).not.toHaveProperty('is_admin');
    expect(gitlabSchemaErrors('user/basic.json', asUser.body)).toEqual([]);
    const asAdmin = await api.get(`/api/v4/users/${created.body.id}`).set(callerHeader(adminCaller()));
    expect(asAdmin.body).toMatchObject({ email: 'lovelace@example.com', is_admin: false, sign_in_count: 0 });
  });

  it('answers 404 for an unknown user and 400 for a malformed id', async () => {
    const missing = await api.get('/api/v4/users/999999').set(callerHeader(adminCaller()));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
    const malformed = await api.get('/api/v4/users/abc').set(callerHeader(adminCaller()));
    expect(malformed.status).toBe(400);
  });
});

describe('POST /users/:user_id/personal_access_tokens and gRPC Authenticate', () => {
  it('issues a token that authenticates as its user, stored only as a digest', async () => {
    const user = await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(newUser('knuth'));
    const issued = await api
      .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
      .set(callerHeader(adminCaller()))
      .send({ name: 'ci', scopes: ['api', 'read_user'] });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ name: 'ci', scopes: ['api', 'read_user'], user_id: user.body.id, active: true, revoked: false });
    expect(issued.body.token).toMatch(/^glpat-/);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const stored = await client.query('select token_digest from personal_access_tokens where id = $1', [issued.body.id]);
    await client.end();
    expect(stored.rows[0].token_digest).not.toContain(issued.body.token);

    const authenticated = await callUnary(grpcClient.authenticate.bind(grpcClient), { token: issued.body.token, sudo: '' });
    expect(authenticated.user).toMatchObject({ id: user.body.id, username: 'knuth', isAdmin: false });
    expect(authenticated.scopes).toEqual(['api', 'read_user']);
  });

  it('refuses unknown scopes, a past expiry and an unknown user', async () => {
    const badScope = await api
      .post('/api/v4/users/1/personal_access_tokens')
      .set(callerHeader(adminCaller()))
      .send({ name: 'x', scopes: ['everything'] });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error).toBe('scopes[0] does not have a valid value');
    const past = await api
      .post('/api/v4/users/1/personal_access_tokens')
      .set(callerHeader(adminCaller()))
      .send({ name: 'x', scopes: ['api'], expires_at: '2020-01-01' });
    expect(past.status).toBe(400);
    const unknown = await api
      .post('/api/v4/users/999999/personal_access_tokens')
      .set(callerHeader(adminCaller()))
      .send({ name: 'x', scopes: ['api'] });
    expect(unknown.status).toBe(404);
  });

  it('rejects a bad token and honours sudo for administrators only', async () => {
    await expect(callUnary(grpcClient.authenticate.bind(grpcClient), { token: 'glpat-wrong', sudo: '' })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const asGrace = await callUnary(grpcClient.authenticate.bind(grpcClient), { token: ROOT_TOKEN, sudo: 'grace' });
    expect(asGrace.user?.username).toBe('grace');
    expect(asGrace.impersonatorId).toBe(1);
    await expect(callUnary(grpcClient.authenticate.bind(grpcClient), { token: ROOT_TOKEN, sudo: 'nobody-here' })).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const user = await api.post('/api/v4/users').set(callerHeader(adminCaller())).send(newUser('plainuser'));
    const issued = await api
      .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
      .set(callerHeader(adminCaller()))
      .send({ name: 'x', scopes: ['api', 'sudo'] });
    await expect(callUnary(grpcClient.authenticate.bind(grpcClient), { token: issued.body.token, sudo: 'root' })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });

  it('serves user summaries to other services', async () => {
    const response = await callUnary(grpcClient.getUsers.bind(grpcClient), { ids: [1, 424242] });
    expect(response.users).toEqual([expect.objectContaining({ id: 1, username: 'root', webUrl: 'http://platform.test/root' })]);
  });
});

describe('administrators, confirmed against the current user row', () => {
  it('refuses administrator-only routes to a demoted or blocked administrator the gateway still signs as one', async () => {
    const former = await harness.createUser('former-admin', { admin: true });
    const signedAsAdmin = { ...userCaller(former.id, 'former-admin'), isAdmin: true };
    const attributes = `/api/v4/users/${former.id}/custom_attributes`;
    expect((await api.get(attributes).set(callerHeader(signedAsAdmin))).status).toBe(200);
    expect(await callUnary(grpcClient.checkAdministrator.bind(grpcClient), {}, { caller: signedAsAdmin })).toEqual({
      isAdministrator: true,
    });

    await harness.sql('update users set is_admin = false where id = $1', [former.id]);
    expect((await api.get(attributes).set(callerHeader(signedAsAdmin))).body).toEqual({ message: '403 Forbidden' });
    expect(await callUnary(grpcClient.checkAdministrator.bind(grpcClient), {}, { caller: signedAsAdmin })).toEqual({
      isAdministrator: false,
    });

    await harness.sql("update users set is_admin = true, state = 'blocked' where id = $1", [former.id]);
    expect((await api.get(attributes).set(callerHeader(signedAsAdmin))).status).toBe(403);
    expect((await callUnary(grpcClient.checkAdministrator.bind(grpcClient), {}, { caller: signedAsAdmin })).isAdministrator).toBe(false);
    expect((await callUnary(grpcClient.checkAdministrator.bind(grpcClient), {}, { caller: adminCaller() })).isAdministrator).toBe(true);
  });
});

describe('token scopes on identity gRPC', () => {
  it('refuse a call acting for a token that could not have made the request behind it', async () => {
    const readUser = { ...userCaller(1, 'root'), scopes: ['read_user'] };
    await expect(callUnary(grpcClient.getUsers.bind(grpcClient), { ids: [1] }, { caller: readUser })).rejects.toMatchObject({
      name: 'InsufficientScopeError',
      scopes: ['api', 'read_api', 'read_repository', 'write_repository'],
    });
    const reader = { ...userCaller(1, 'root'), scopes: ['read_repository'] };
    await expect(
      callUnary(grpcClient.setProjectDefaultBranch.bind(grpcClient), { projectId: 1, branch: 'main' }, { caller: reader }),
    ).rejects.toMatchObject({ name: 'InsufficientScopeError', scopes: ['api', 'write_repository'] });
    // Resolving whoever may see it is for services on their own behalf, never for a user.
    await expect(
      callUnary(grpcClient.resolveProject.bind(grpcClient), { idOrPath: '1' }, { caller: adminCaller() }),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });
});
