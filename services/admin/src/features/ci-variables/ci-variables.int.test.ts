/**
 * Instance CI/CD variables against real PostgreSQL and Kafka: GitLab's validation of keys, values
 * and masking, the count limit, values encrypted at rest, and an event for every change.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { CiVariableUpdated } from '@platform/proto/admin/v1/events';
import { startService, type RunningService } from '@platform/service';
import { adminCaller, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { adminService } from '../../main.ts';

const LIMIT = 4;
const root = adminCaller();
let harness: ServiceHarness<RunningService>;

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'admin_variables',
    env: {
      KAFKA_TOPIC_PREFIX: `admin-variables-${randomUUID()}.`,
      CI_VARIABLES_KEY: randomBytes(32).toString('base64'),
      MAX_CI_VARIABLES: String(LIMIT),
    },
    start: (env) => startService(adminService(readConfig(env), { identityAccess: new FakeIdentityAccess() })),
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
