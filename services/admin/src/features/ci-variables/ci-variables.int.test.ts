/**
 * CI/CD variables against real PostgreSQL and Kafka: the instance's (GitLab's validation of keys,
 * values and masking, the count limit, values encrypted at rest, and an event for every change),
 * and a project's or group's, managed by its maintainers, a project's unique by key and environment scope,
 * each change an event naming the group or project.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ACCESS_LEVEL, FakeIdentityAccess } from '@platform/identity-client';
import { CiVariableCreated, CiVariableDeleted, CiVariableUpdated } from '@platform/proto/admin/v1/events';
import { startService, type RunningService } from '@platform/service';
import { adminCaller, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { adminService } from '../../main.ts';

const LIMIT = 4;
const root = adminCaller();
const maintainer = userCaller(31, 'maintainer');
const developer = userCaller(32, 'developer');
const identity = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', levels: { 31: ACCESS_LEVEL.MAINTAINER, 32: ACCESS_LEVEL.DEVELOPER } })
  .add({ resource: 'project', id: 8, path: 'acme/other', levels: { 31: ACCESS_LEVEL.MAINTAINER } })
  .add({ resource: 'group', id: 3, path: 'acme', levels: { 31: ACCESS_LEVEL.MAINTAINER, 32: ACCESS_LEVEL.DEVELOPER } });
let harness: ServiceHarness<RunningService>;

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'admin_variables',
    env: {
      KAFKA_TOPIC_PREFIX: `admin-variables-${randomUUID()}.`,
      CI_VARIABLES_KEY: randomBytes(32).toString('base64'),
      MAX_CI_VARIABLES: String(LIMIT),
    },
    start: (env) => startService(adminService(readConfig(env), { identityAccess: identity })),
  });
});

afterAll(() => harness?.stop());

const create = (body: Record<string, unknown>) => harness.api.post('/api/v4/admin/ci/variables').set(harness.as(root)).send(body);

describe('instance CI/CD variables', () => {
  it('creates, reads, lists, updates and deletes a variable', async () => {
    const created = await create({ key: 'DEPLOY_TOKEN', value: 'token-value-1', protected: true, masked: 'true' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      key: 'DEPLOY_TOKEN',
      variable_type: 'env_var',
      value: 'token-value-1',
      protected: true,
      masked: true,
      raw: false,
      description: null,
    });
    const read = await harness.api.get('/api/v4/admin/ci/variables/DEPLOY_TOKEN').set(harness.as(root));
    expect(read.body).toEqual(created.body);

    const updated = await harness.api
      .put('/api/v4/admin/ci/variables/DEPLOY_TOKEN')
      .set(harness.as(root))
      .type('form')
      .send('value=token-value-2&variable_type=file&protected=false');
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ value: 'token-value-2', variable_type: 'file', protected: false, masked: true });

    const listed = await harness.api.get('/api/v4/admin/ci/variables').set(harness.as(root));
    expect(listed.status).toBe(200);
    expect(listed.headers['x-total']).toBe('1');
    expect(listed.body).toEqual([updated.body]);

    const changes = (await harness.outboxEvents('admin.ci_variable.updated')).map((event) => CiVariableUpdated.fromJSON(event.data));
    expect(changes.map(({ attribute, from, to }) => ({ attribute, from, to }))).toEqual([
      { attribute: 'value', from: '', to: '' },
      { attribute: 'variable_type', from: 'env_var', to: 'file' },
      { attribute: 'protected', from: 'true', to: 'false' },
    ]);

    expect((await harness.api.delete('/api/v4/admin/ci/variables/DEPLOY_TOKEN').set(harness.as(root))).status).toBe(204);
    const gone = await harness.api.get('/api/v4/admin/ci/variables/DEPLOY_TOKEN').set(harness.as(root));
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Variable Not Found' });
    expect(await harness.outboxEvents('admin.ci_variable.created')).toHaveLength(1);
    expect(await harness.outboxEvents('admin.ci_variable.deleted')).toHaveLength(1);
  });

  it('keeps values encrypted at rest and out of events', async () => {
    expect((await create({ key: 'AT_REST', value: 'plain-text-secret' })).status).toBe(201);
    const [row] = await harness.sql<{ encrypted_value: string }>("select encrypted_value from ci_variables where key = 'AT_REST'");
    expect(row?.encrypted_value).toMatch(/^v1:/);
    expect(row?.encrypted_value).not.toContain('plain-text-secret');
    const events = await harness.sql<{ envelope: string }>('select envelope::text from outbox');
    expect(events.some((event) => event.envelope.includes('plain-text-secret'))).toBe(false);
    await harness.api.delete('/api/v4/admin/ci/variables/AT_REST').set(harness.as(root));
  });

  it.each([
    [{ value: 'x' }, 400, { error: 'key is missing' }],
    [{ key: 'NO_VALUE' }, 400, { error: 'value is missing' }],
    [{ key: 'BAD-KEY', value: 'x' }, 400, { message: { key: ["can contain only letters, digits and '_'."] } }],
    [{ key: 'K'.repeat(256), value: 'x' }, 400, { message: { key: ['is too long (maximum is 255 characters)'] } }],
    [
      { key: 'LONG', value: 'v'.repeat(10_001) },
      400,
      { message: { value: ['The value of the provided variable exceeds the 10000 character limit'] } },
    ],
    [{ key: 'SHORT_MASKED', value: 'seven77', masked: true }, 400, { message: { value: ['is invalid'] } }],
    [{ key: 'MASKED_SPACE', value: 'has a space in it', masked: true }, 400, { message: { value: ['is invalid'] } }],
    [{ key: 'MASKED_LINES', value: 'line-one\nline-two', masked: true, raw: true }, 400, { message: { value: ['is invalid'] } }],
    [{ key: 'TYPE', value: 'x', variable_type: 'secret' }, 400, { error: 'variable_type does not have a valid value' }],
  ])('refuses %j as GitLab does', async (body, status, error) => {
    const response = await create(body);
    expect(response.status).toBe(status);
    expect(response.body).toEqual(error);
  });

  it('accepts the edges: 255-character keys, 10,000-character values, masked values of the allowed alphabet', async () => {
    const keys = ['K'.repeat(255), 'MASKED_OK', 'MASKED_RAW'];
    expect((await create({ key: keys[0], value: 'v'.repeat(10_000) })).status).toBe(201);
    expect((await create({ key: keys[1], value: 'abc_+=/@:.~-123', masked: true })).status).toBe(201);
    expect((await create({ key: keys[2], value: 'raw$value!%', masked: true, raw: true })).status).toBe(201);
    for (const key of keys) await harness.api.delete(`/api/v4/admin/ci/variables/${key}`).set(harness.as(root));
  });

  it('refuses a masked update the value does not allow, a duplicate key, and more variables than the limit', async () => {
    expect((await create({ key: 'FIRST', value: 'first-value' })).status).toBe(201);
    const masked = await harness.api.put('/api/v4/admin/ci/variables/FIRST').set(harness.as(root)).send({ value: 'short', masked: true });
    expect(masked.body).toEqual({ message: { value: ['is invalid'] } });
    const duplicate = await create({ key: 'FIRST', value: 'again' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ message: { key: ['(FIRST) has already been taken'] } });
    for (const key of ['SECOND', 'THIRD', 'FOURTH']) expect((await create({ key, value: 'v' })).status).toBe(201);
    const over = await create({ key: 'FIFTH', value: 'v' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ message: { base: [`Maximum number of ci instance level variables (${LIMIT}) exceeded`] } });
  });

  it('is for administrators only, and answers 404 for an unknown key', async () => {
    const stranger = userCaller(23, 'stranger');
    expect((await harness.api.get('/api/v4/admin/ci/variables').set(harness.as(stranger))).status).toBe(403);
    expect((await harness.api.put('/api/v4/admin/ci/variables/NOPE').set(harness.as(root)).send({ value: 'x' })).status).toBe(404);
    expect((await harness.api.delete('/api/v4/admin/ci/variables/NOPE').set(harness.as(root))).status).toBe(404);
  });
});

describe('project and group CI/CD variables', () => {
  const projectVariables = '/api/v4/projects/acme%2Fapp/variables';

  it('creates a project variable per environment scope, and asks for filter[environment_scope] when a key has several', async () => {
    const all = await harness.api.post(projectVariables).set(harness.as(maintainer)).send({ key: 'DB_URL', value: 'postgres://all' });
    expect(all.status).toBe(201);
    expect(all.body).toEqual({
      variable_type: 'env_var',
      key: 'DB_URL',
      value: 'postgres://all',
      hidden: false,
      protected: false,
      masked: false,
      raw: false,
      environment_scope: '*',
      description: null,
    });
    const production = await harness.api.post('/api/v4/projects/7/variables').set(harness.as(maintainer)).send({
      key: 'DB_URL',
      value: 'postgres://production',
      environment_scope: 'production',
      variable_type: 'file',
      description: 'the database',
    });
    expect(production.status).toBe(201);
    expect(production.body).toMatchObject({ environment_scope: 'production', variable_type: 'file', description: 'the database' });

    const taken = await harness.api
      .post(projectVariables)
      .set(harness.as(maintainer))
      .send({ key: 'DB_URL', value: 'again', environment_scope: 'production' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { key: ['(DB_URL) has already been taken'] } });

    const ambiguous = await harness.api.get(`${projectVariables}/DB_URL`).set(harness.as(maintainer));
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body).toEqual({
      message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
    });
    const filtered = await harness.api.get(`${projectVariables}/DB_URL?filter[environment_scope]=production`).set(harness.as(maintainer));
    expect(filtered.body).toEqual(production.body);

    const updated = await harness.api
      .put(`${projectVariables}/DB_URL?filter[environment_scope]=production`)
      .set(harness.as(maintainer))
      .send({ protected: true, environment_scope: 'production/*' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ value: 'postgres://production', protected: true, environment_scope: 'production/*' });
    const collision = await harness.api
      .put(`${projectVariables}/DB_URL?filter[environment_scope]=production/*`)
      .set(harness.as(maintainer))
      .send({ environment_scope: '*' });
    expect(collision.status).toBe(400);
    expect(collision.body).toEqual({ message: { key: ['(DB_URL) has already been taken'] } });

    const listed = await harness.api.get(projectVariables).set(harness.as(maintainer));
    expect(listed.headers['x-total']).toBe('2');
    expect(listed.body.map((variable: { environment_scope: string }) => variable.environment_scope)).toEqual(['*', 'production/*']);
    expect((await harness.api.get('/api/v4/projects/8/variables').set(harness.as(maintainer))).body).toEqual([]);
    expect((await harness.api.get('/api/v4/admin/ci/variables/DB_URL').set(harness.as(root))).status).toBe(404);

    expect((await harness.api.delete(`${projectVariables}/DB_URL`).set(harness.as(maintainer))).status).toBe(409);
    expect((await harness.api.delete(`${projectVariables}/DB_URL?filter[environment_scope]=*`).set(harness.as(maintainer))).status).toBe(
      204,
    );
    expect((await harness.api.get(`${projectVariables}/DB_URL`).set(harness.as(maintainer))).body).toMatchObject({
      environment_scope: 'production/*',
    });
  });

  it('keeps a project variable encrypted for its own owner, and applies the masking rules', async () => {
    const masked = await harness.api
      .post(projectVariables)
      .set(harness.as(maintainer))
      .send({ key: 'SECRET', value: 'short', masked: true });
    expect(masked.status).toBe(400);
    expect(masked.body).toEqual({ message: { value: ['is invalid'] } });
    expect(
      (
        await harness.api
          .post(projectVariables)
          .set(harness.as(maintainer))
          .send({ key: 'SECRET', value: 'long-enough-secret', masked: true })
      ).status,
    ).toBe(201);
    const [row] = await harness.sql<{ encrypted_value: string; owner_type: string; owner_id: string }>(
      "select encrypted_value, owner_type, owner_id from ci_variables where key = 'SECRET'",
    );
    expect(row).toMatchObject({ owner_type: 'project', owner_id: '7' });
    expect(row?.encrypted_value).toMatch(/^v1:/);
    expect(row?.encrypted_value).not.toContain('long-enough-secret');
  });

  it('manages group variables, whose environment scope is always *', async () => {
    const created = await harness.api
      .post('/api/v4/groups/acme/variables')
      .set(harness.as(maintainer))
      .send({ key: 'GROUP_TOKEN', value: 'group-value', raw: true, environment_scope: 'production' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key: 'GROUP_TOKEN', value: 'group-value', raw: true, environment_scope: '*' });
    const updated = await harness.api.put('/api/v4/groups/3/variables/GROUP_TOKEN').set(harness.as(maintainer)).send({ value: 'changed' });
    expect(updated.body).toMatchObject({ value: 'changed', raw: true });
    expect((await harness.api.get('/api/v4/groups/3/variables').set(harness.as(maintainer))).body).toEqual([updated.body]);
    expect((await harness.api.delete('/api/v4/groups/3/variables/GROUP_TOKEN').set(harness.as(maintainer))).status).toBe(204);
    expect((await harness.api.get('/api/v4/groups/3/variables/GROUP_TOKEN').set(harness.as(maintainer))).status).toBe(404);
  });

  it('records each change of a project or group variable as an event naming its owner, never its value', async () => {
    const variables = '/api/v4/projects/acme%2Fother/variables';
    const created = await harness.api
      .post(variables)
      .set(harness.as(maintainer))
      .send({ key: 'AUDITED', value: 'first-secret', environment_scope: 'staging' });
    expect(created.status).toBe(201);
    const changed = await harness.api
      .put(`${variables}/AUDITED`)
      .set(harness.as(maintainer))
      .send({ value: 'second-secret', protected: true });
    expect(changed.status).toBe(200);
    expect((await harness.api.delete(`${variables}/AUDITED`).set(harness.as(maintainer))).status).toBe(204);
    const group = await harness.api.post('/api/v4/groups/3/variables').set(harness.as(maintainer)).send({ key: 'AUDITED', value: 'x' });
    expect(group.status).toBe(201);

    const project = { type: 'project', id: 8, fullPath: 'acme/other' };
    const audited = <T extends { variable?: { key: string } | undefined }>(type: string, decode: (data: unknown) => T) =>
      harness
        .outboxEvents(type)
        .then((events) =>
          events.map((event) => ({ data: decode(event.data), actor: event.actor })).filter(({ data }) => data.variable?.key === 'AUDITED'),
        );
    const [createdEvent, groupEvent] = await audited('admin.ci_variable.created', (data) => CiVariableCreated.fromJSON(data));
    expect(createdEvent).toEqual({
      data: {
        variable: {
          key: 'AUDITED',
          id: expect.any(Number),
          environmentScope: 'staging',
          variableType: 'env_var',
          protected: false,
          masked: false,
          raw: false,
          owner: project,
        },
      },
      actor: expect.objectContaining({ id: maintainer.userId }),
    });
    expect(groupEvent?.data.variable?.owner).toEqual({ type: 'group', id: 3, fullPath: 'acme' });
    const updates = await audited('admin.ci_variable.updated', (data) => CiVariableUpdated.fromJSON(data));
    expect(updates.map(({ data }) => [data.variable?.owner, data.attribute, data.from, data.to])).toEqual([
      [project, 'value', '', ''],
      [project, 'protected', 'false', 'true'],
    ]);
    const [deletedEvent] = await audited('admin.ci_variable.deleted', (data) => CiVariableDeleted.fromJSON(data));
    expect(deletedEvent?.data.variable).toMatchObject({ id: createdEvent?.data.variable?.id, owner: project });
    const envelopes = await harness.sql<{ envelope: string }>('select envelope::text from outbox');
    expect(envelopes.filter((row) => /first-secret|second-secret/.test(row.envelope))).toEqual([]);
  });

  it('is for maintainers: 403 for developers, 404 for strangers and unknown projects', async () => {
    expect((await harness.api.get(projectVariables).set(harness.as(developer))).status).toBe(403);
    expect((await harness.api.post('/api/v4/groups/3/variables').set(harness.as(developer)).send({ key: 'K', value: 'v' })).status).toBe(
      403,
    );
    const stranger = await harness.api.get(projectVariables).set(harness.as(userCaller(33, 'stranger')));
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ message: '404 Project Not Found' });
    expect((await harness.api.get('/api/v4/projects/999/variables').set(harness.as(maintainer))).status).toBe(404);
    const missing = await harness.api.post(projectVariables).set(harness.as(maintainer)).send({ key: 'NO_VALUE' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'value is missing' });
  });
});
