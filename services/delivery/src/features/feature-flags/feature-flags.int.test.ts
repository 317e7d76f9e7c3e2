/**
 * Feature flags, user lists and the Unleash client API against real PostgreSQL and Kafka
 * (identity's access answers come from a fake): GitLab's bodies validated against its schemas,
 * strategies and scopes changed by id, legacy flags, names, who may do what, and the events.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FeatureFlagChanged } from '@platform/proto/delivery/v1/events';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { deliveryService } from '../../main.ts';

const maintainer = userCaller(41, 'maintainer');
const developer = userCaller(42, 'dev');
const reporter = userCaller(43, 'reporter');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', namespaceIds: [5], levels: { 41: 40, 42: 30, 43: 20 } })
  .add({ resource: 'project', id: 8, path: 'acme/other', namespaceIds: [5], levels: { 41: 40, 42: 30 } });
let harness: ServiceHarness<RunningService>;

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'delivery_feature_flags',
    env: { KAFKA_TOPIC_PREFIX: `delivery-flags-${randomUUID()}.` },
    start: (env) => startService(deliveryService(readConfig(env), { identityAccess: access })),
  });
});

afterAll(() => harness?.stop());

/** Unleash clients reach the service as the gateway forwards them: anonymous, with their instance id. */
const anonymous = { kind: 'anonymous' } as const;
const unleashGet = (path: string) => harness.api.get(path).set(harness.as(anonymous));
const unleashPost = (path: string) => harness.api.post(path).set(harness.as(anonymous));

const flags = (project = 7) => `/api/v4/projects/${project}/feature_flags`;
const createFlag = (body: Record<string, unknown>, caller = developer, project = 7) =>
  harness.api.post(flags(project)).set(harness.as(caller)).send(body);

describe('feature flags', () => {
  it('creates a new-version flag with every strategy type, as GitLab shows it', async () => {
    const list = await harness.api
      .post('/api/v4/projects/7/feature_flags_user_lists')
      .set(harness.as(developer))
      .send({ name: 'beta testers', user_xids: 'ada,grace' });
    expect(list.status).toBe(201);
    expect(list.body).toMatchObject({ iid: 1, project_id: 7, name: 'beta testers', user_xids: 'ada,grace' });

    const created = await createFlag({
      name: 'new_checkout',
      version: 'new_version_flag',
      description: 'The new checkout',
      strategies: [
        { name: 'default', parameters: {}, scopes: [{ environment_scope: 'review/*' }] },
        {
          name: 'gradualRolloutUserId',
          parameters: { groupId: 'default', percentage: '25' },
          scopes: [{ environment_scope: 'production' }],
        },
        {
          name: 'userWithId',
          parameters: { userIds: 'linus' },
          scopes: [{ environment_scope: 'production' }, { environment_scope: 'staging' }],
        },
        {
          name: 'flexibleRollout',
          parameters: { groupId: 'checkout', rollout: '50', stickiness: 'userId' },
          scopes: [{ environment_scope: 'staging' }],
        },
        { name: 'svcUserList', parameters: {}, user_list_id: list.body.id, scopes: [{ environment_scope: '*' }] },
      ],
    });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('feature_flag.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({ name: 'new_checkout', active: true, version: 'new_version_flag', scopes: [] });
    expect(created.body.strategies).toHaveLength(5);
    expect(created.body.strategies[4]).toMatchObject({
      name: 'svcUserList',
      user_list: { id: list.body.id, iid: 1, name: 'beta testers', user_xids: 'ada,grace' },
    });
    const events = await harness.outboxEvents('delivery.feature_flag.created');
    expect(events.at(-1)).toMatchObject({ aggregateId: '7', actor: { id: 42 }, data: { name: 'new_checkout', projectPath: 'acme/app' } });

    const shown = await harness.api.get(`${flags()}/new_checkout`).set(harness.as(developer));
    expect(shown.body).toEqual(created.body);
  });

  it('makes a legacy flag without a version, and refuses to change it', async () => {
    const legacy = await createFlag({ name: 'old_banner', active: false });
    expect(legacy.status).toBe(201);
    expect(gitlabSchemaErrors('feature_flag.json', legacy.body)).toEqual([]);
    expect(legacy.body).toMatchObject({ version: 'legacy_flag', strategies: [], scopes: [{ environment_scope: '*', active: false }] });
    const put = await harness.api.put(`${flags()}/old_banner`).set(harness.as(developer)).send({ active: true });
    expect(put.status).toBe(422);
    expect(put.body).toEqual({ message: 'PUT operations are not supported for legacy feature flags' });
  });

  it('changes strategies and scopes by id, adds those without one and removes those marked _destroy', async () => {
    const before = (await harness.api.get(`${flags()}/new_checkout`).set(harness.as(developer))).body;
    const [byDefault, gradual, userWithId] = before.strategies as Array<{ id: number; scopes: Array<{ id: number }> }>;
    const updated = await harness.api
      .put(`${flags()}/new_checkout`)
      .set(harness.as(developer))
      .send({
        active: false,
        strategies: [
          { id: byDefault!.id, _destroy: true },
          { id: gradual!.id, parameters: { groupId: 'default', percentage: '75' } },
          { id: userWithId!.id, scopes: [{ id: userWithId!.scopes[1]!.id, _destroy: true }, { environment_scope: 'qa' }] },
          { name: 'default', parameters: {}, scopes: [{ environment_scope: 'canary' }] },
        ],
      });
    expect(updated.status).toBe(200);
    expect(gitlabSchemaErrors('feature_flag.json', updated.body)).toEqual([]);
    expect(updated.body.active).toBe(false);
    const strategies = updated.body.strategies as Array<{
      id: number;
      name: string;
      parameters: object;
      scopes: Array<{ environment_scope: string }>;
    }>;
    expect(strategies.map((strategy) => strategy.name)).toEqual([
      'gradualRolloutUserId',
      'userWithId',
      'flexibleRollout',
      'svcUserList',
      'default',
    ]);
    expect(strategies[0]).toMatchObject({ id: gradual!.id, parameters: { percentage: '75' } });
    expect(strategies[1]!.scopes.map((scope) => scope.environment_scope)).toEqual(['production', 'qa']);
    const toggled = (await harness.outboxEvents('delivery.feature_flag.toggled')).at(-1)!;
    expect(FeatureFlagChanged.fromJSON(toggled.data)).toMatchObject({ name: 'new_checkout', active: false });
    expect((await harness.outboxEvents('delivery.feature_flag.updated')).at(-1)?.data).toMatchObject({ name: 'new_checkout' });

    const tooShort = await harness.api.put(`${flags()}/new_checkout`).set(harness.as(developer)).send({ name: 'c' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body).toEqual({ message: ['Name is too short (minimum is 2 characters)'] });
    expect((await harness.api.get(`${flags()}/new_checkout`).set(harness.as(developer))).status).toBe(200);
    const renamed = await harness.api.put(`${flags()}/new_checkout`).set(harness.as(developer)).send({ name: 'checkout', active: true });
    expect(renamed.body.name).toBe('checkout');
    expect((await harness.api.get(`${flags()}/new_checkout`).set(harness.as(developer))).status).toBe(404);
  });

  it('lists flags by scope', async () => {
    const names = async (query: string) =>
      ((await harness.api.get(`${flags()}${query}`).set(harness.as(developer))).body as Array<{ name: string }>).map((flag) => flag.name);
    expect(await names('')).toEqual(['checkout', 'old_banner']);
    expect(await names('?scope=enabled')).toEqual(['checkout']);
    expect(await names('?scope=disabled')).toEqual(['old_banner']);
    const listed = await harness.api.get(flags()).set(harness.as(developer));
    // GitLab's feature_flags.json nests its $ref inside `properties`, which no validator reads: each item is checked instead.
    for (const flag of listed.body) expect(gitlabSchemaErrors('feature_flag.json', flag)).toEqual([]);
    expect(listed.headers['x-total']).toBe('2');
  });

  it('refuses invalid flags with GitLab messages', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const response = await createFlag({ version: 'new_version_flag', ...body });
      expect(response.status).toBe(400);
      return response.body;
    };
    expect(await refused({ name: 'checkout' })).toEqual({ message: ['Name has already been taken'] });
    expect(await refused({ name: 'Bad Name' })).toEqual({
      message: ["Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'"],
    });
    expect(await refused({ name: 'a' })).toEqual({ message: ['Name is too short (minimum is 2 characters)'] });
    expect(await refused({ name: `a${'b'.repeat(63)}` })).toEqual({ message: ['Name is too long (maximum is 63 characters)'] });
    expect(
      await refused({ name: 'xy', strategies: [{ name: 'gradualRolloutUserId', parameters: { groupId: 'default', percentage: '150' } }] }),
    ).toEqual({
      message: ['Strategies parameters percentage must be a string between 0 and 100 inclusive'],
    });
    expect(await refused({ name: 'xy', strategies: [{ name: 'userWithId', parameters: {} }] })).toEqual({
      message: ['Strategies parameters are invalid'],
    });
    const otherList = await harness.api
      .post('/api/v4/projects/8/feature_flags_user_lists')
      .set(harness.as(developer))
      .send({ name: 'elsewhere', user_xids: 'x' });
    expect(await refused({ name: 'xy', strategies: [{ name: 'svcUserList', parameters: {}, user_list_id: otherList.body.id }] })).toEqual({
      message: ['Strategies user list must belong to the same project'],
    });
    expect((await createFlag({ version: 'new_version_flag' })).body).toEqual({ error: 'name is missing' });
    expect((await createFlag({ name: 'x', version: 'v3' })).body).toEqual({ error: 'version does not have a valid value' });
  });

  it('lets developers and above only', async () => {
    expect((await harness.api.get(flags()).set(harness.as(reporter))).status).toBe(403);
    expect((await createFlag({ name: 'nope' }, reporter)).status).toBe(403);
    expect((await harness.api.get(flags(8)).set(harness.as(reporter))).status).toBe(404);
  });

  it('deletes a flag, answering it', async () => {
    const deleted = await harness.api.delete(`${flags()}/old_banner`).set(harness.as(developer));
    expect(deleted.status).toBe(200);
    expect(deleted.body.name).toBe('old_banner');
    expect((await harness.api.get(`${flags()}/old_banner`).set(harness.as(developer))).body).toEqual({
      message: '404 Feature Flag Not Found',
    });
    expect((await harness.outboxEvents('delivery.feature_flag.deleted')).at(-1)?.data).toMatchObject({ name: 'old_banner' });
  });
});

describe('feature flag user lists', () => {
  it('lists, searches, updates and keeps a list a strategy uses', async () => {
    const path = '/api/v4/projects/7/feature_flags_user_lists';
    const second = await harness.api.post(path).set(harness.as(developer)).send({ name: 'staff', user_xids: 'root' });
    expect(second.body.iid).toBe(2);
    expect(
      (await harness.api.get(`${path}?search=staf`).set(harness.as(developer))).body.map((list: { name: string }) => list.name),
    ).toEqual(['staff']);
    const updated = await harness.api.put(`${path}/2`).set(harness.as(developer)).send({ user_xids: 'root,admin' });
    expect(updated.body).toMatchObject({ iid: 2, user_xids: 'root,admin' });
    expect((await harness.api.post(path).set(harness.as(developer)).send({ name: 'staff', user_xids: 'x' })).body).toEqual({
      message: ['Name has already been taken'],
    });
    const inUse = await harness.api.delete(`${path}/1`).set(harness.as(developer));
    expect(inUse.status).toBe(409);
    expect((await harness.api.delete(`${path}/2`).set(harness.as(developer))).status).toBe(204);
    expect((await harness.api.get(`${path}/2`).set(harness.as(developer))).status).toBe(404);
  });
});

describe('the Unleash client API', () => {
  let instanceId: string;

  it('shows maintainers the instance id and URL, and resets it', async () => {
    const client = await harness.api.get('/api/v4/projects/7/feature_flags_client').set(harness.as(maintainer));
    expect(client.status).toBe(200);
    expect(client.body.instance_id).toMatch(/^glffct-/);
    expect(client.body.url).toMatch(/\/api\/v4\/feature_flags\/unleash\/7$/);
    expect((await harness.api.get('/api/v4/projects/7/feature_flags_client').set(harness.as(developer))).status).toBe(403);
    const reset = await harness.api.post('/api/v4/projects/7/feature_flags_client/reset_token').set(harness.as(maintainer));
    expect(reset.body.instance_id).not.toBe(client.body.instance_id);
    instanceId = reset.body.instance_id as string;
    const old = await unleashGet('/api/v4/feature_flags/unleash/7/client/features').set({ 'UNLEASH-INSTANCEID': client.body.instance_id });
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ message: '401 Unauthorized' });
    expect(await harness.outboxEvents('delivery.feature_flags_client.token_reset')).toHaveLength(1);
  });

  it("answers each environment's strategies as GitLab translates them", async () => {
    const features = async (appName: string | undefined) => {
      const headers: Record<string, string> = { 'UNLEASH-INSTANCEID': instanceId };
      if (appName !== undefined) headers['UNLEASH-APPNAME'] = appName;
      const response = await unleashGet('/api/v4/feature_flags/unleash/7/client/features').set(headers);
      expect(response.status).toBe(200);
      return response.body as { version: number; features: Array<{ name: string; enabled: boolean; strategies: unknown[] }> };
    };
    expect(await features(undefined)).toEqual({ version: 1, features: [] });
    const production = await features('production');
    expect(production.version).toBe(1);
    expect(production.features).toEqual([
      {
        name: 'checkout',
        description: 'The new checkout',
        enabled: true,
        strategies: [
          { name: 'gradualRolloutUserId', parameters: { groupId: 'default', percentage: '75' } },
          { name: 'userWithId', parameters: { userIds: 'linus' } },
          { name: 'userWithId', parameters: { userIds: 'ada,grace' } },
        ],
      },
    ]);
    expect((await features('canary')).features[0]!.strategies).toEqual([
      { name: 'userWithId', parameters: { userIds: 'ada,grace' } },
      { name: 'default', parameters: {} },
    ]);
    const byParameter = await unleashGet(`/api/v4/feature_flags/unleash/7/features?instance_id=${instanceId}&app_name=staging`);
    expect(byParameter.body.features[0].strategies[0]).toEqual({
      name: 'flexibleRollout',
      parameters: { groupId: 'checkout', rollout: '50', stickiness: 'userId' },
    });
  });

  it('acknowledges registration and metrics, and refuses unknown instance ids and projects', async () => {
    const register = await unleashPost('/api/v4/feature_flags/unleash/7/client/register')
      .set({ 'UNLEASH-INSTANCEID': instanceId })
      .send({ appName: 'production', instanceId: 'pod-1', strategies: ['default'], started: new Date().toISOString(), interval: 15000 });
    expect(register.status).toBe(200);
    expect(
      (await unleashPost('/api/v4/feature_flags/unleash/7/client/metrics').set({ 'UNLEASH-INSTANCEID': instanceId }).send({})).status,
    ).toBe(200);
    // The bodies are dropped, as GitLab drops them, but still read as GitLab reads them: JSON, within the bound.
    const metrics = () => unleashPost('/api/v4/feature_flags/unleash/7/client/metrics');
    expect((await metrics().send({ instance_id: instanceId, bucket: { toggles: { checkout: { yes: 3, no: 1 } } } })).status).toBe(200);
    expect((await metrics().set('Content-Type', 'application/json').send('{"bucket":')).status).toBe(400);
    expect(
      (
        await metrics()
          .set({ 'UNLEASH-INSTANCEID': instanceId })
          .send({ padding: 'x'.repeat(1024 * 1024) })
      ).status,
    ).toBe(413);
    expect((await unleashGet('/api/v4/feature_flags/unleash/7/client/features').set({ 'UNLEASH-INSTANCEID': 'wrong' })).status).toBe(401);
    expect((await unleashGet('/api/v4/feature_flags/unleash/8/client/features').set({ 'UNLEASH-INSTANCEID': instanceId })).status).toBe(
      401,
    );
    expect(
      (await unleashGet('/api/v4/feature_flags/unleash/acme%2Fapp/client/features').set({ 'UNLEASH-INSTANCEID': instanceId })).status,
    ).toBe(401);
    expect((await unleashGet('/api/v4/feature_flags/unleash/7/client/features')).status).toBe(401);
  });

  it('answers 304 to an unchanged If-None-Match, and every change to flags or user lists at once', async () => {
    const poll = (etag?: string) =>
      unleashGet('/api/v4/feature_flags/unleash/7/client/features').set({
        'UNLEASH-INSTANCEID': instanceId,
        'UNLEASH-APPNAME': 'production',
        ...(etag ? { 'If-None-Match': etag } : {}),
      });
    const userIds = (body: { features: Array<{ strategies: Array<{ parameters: { userIds?: string } }> }> }) =>
      body.features.flatMap((feature) => feature.strategies.flatMap((strategy) => strategy.parameters.userIds ?? []));
    const first = await poll();
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^".+"$/);
    const unchanged = await poll(etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.etag).toBe(etag);
    // Nothing but the entity tag, as Unleash's own server answers a 304.
    expect(unchanged.headers['content-type']).toBeUndefined();
    // Fetch clients add `Cache-Control: no-cache` to a conditional request; the entity tag still decides.
    expect((await poll(etag).set({ 'Cache-Control': 'no-cache', Pragma: 'no-cache' })).status).toBe(304);
    expect((await poll(`W/${etag}, "other"`)).status).toBe(304);
    expect((await poll('"other"')).status).toBe(200);

    const list = await harness.api
      .put('/api/v4/projects/7/feature_flags_user_lists/1')
      .set(harness.as(developer))
      .send({ user_xids: 'ada' });
    expect(list.status).toBe(200);
    const afterList = await poll(etag);
    expect(afterList.status).toBe(200);
    expect(userIds(afterList.body)).toEqual(['linus', 'ada']);

    const off = await harness.api.put(`${flags()}/checkout`).set(harness.as(developer)).send({ active: false });
    expect(off.status).toBe(200);
    const afterFlag = await poll(afterList.headers.etag);
    expect(afterFlag.status).toBe(200);
    expect(afterFlag.body.features.map((feature: { enabled: boolean }) => feature.enabled)).toEqual([false]);

    expect((await harness.api.delete(`${flags()}/checkout`).set(harness.as(developer))).status).toBe(200);
    expect((await poll(afterFlag.headers.etag)).body).toEqual({ version: 1, features: [] });
  });
});
