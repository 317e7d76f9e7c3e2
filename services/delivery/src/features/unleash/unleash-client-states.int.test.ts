/**
 * The Unleash client endpoint between changes and across replicas, against real PostgreSQL and
 * Kafka: two delivery replicas share one database; polls between changes run no statement, a
 * change is answered at once by the replica that made it and by the other once its event arrives.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, testEnvironment, TEST_INTERNAL_SECRET, userCaller, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { deliveryService } from '../../main.ts';
import { FOLLOWED_STATE_TRUST_MS } from './unleash-client-states.ts';

const maintainer = userCaller(41, 'maintainer');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 7, path: 'acme/app', namespaceIds: [5], levels: { 41: 40 } });
const topicPrefix = `delivery-unleash-${randomUUID()}.`;
const anonymous = { kind: 'anonymous' } as const;

/** Another replica sees a change within this, well inside the time a kept state is trusted without events. */
const EVENT_LATENCY_BOUND_MS = FOLLOWED_STATE_TRUST_MS / 2;

interface Replica {
  service: RunningService;
  api: ReturnType<typeof request>;
  /** Statements the replica runs, but for the outbox relay's. */
  statements: string[];
}

let harness: ServiceHarness<RunningService>;
let serving: Replica;
let other: Replica;
let instanceId: string;

/** Records every statement the replica's ORM sends, but for the outbox relay's own. */
function replicaOf(service: RunningService): Replica {
  const statements: string[] = [];
  service.orm.config.set('onQuery', (sql: string) => {
    if (!/\boutbox\b/.test(sql)) statements.push(sql);
    return sql;
  });
  return { service, api: request(`http://127.0.0.1:${service.httpPort}`), statements };
}

/** Waits until the replica follows delivery's events, as it does in steady state. */
const followingEvents = (replica: Replica) =>
  waitFor(
    async () => {
      const readiness = await replica.api.get('/-/readiness');
      return readiness.body.checks?.unleashClientEvents === 'live' ? true : undefined;
    },
    { timeoutMs: 60_000, what: 'the Unleash client event feed' },
  );

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'delivery_unleash_states',
    env: { KAFKA_TOPIC_PREFIX: topicPrefix },
    start: (env) => startService(deliveryService(readConfig(env), { identityAccess: access })),
  });
  const second = await startService(
    deliveryService(
      readConfig({
        HTTP_PORT: '0',
        DATABASE_URL: harness.databaseUrl,
        KAFKA_BROKERS: testEnvironment().kafkaBrokers.join(','),
        KAFKA_TOPIC_PREFIX: topicPrefix,
        INTERNAL_SECRET: TEST_INTERNAL_SECRET,
        LOG_LEVEL: 'silent',
      }),
      { identityAccess: access },
    ),
  );
  serving = replicaOf(harness.service);
  other = replicaOf(second);
  await followingEvents(serving);
  await followingEvents(other);
  instanceId = (await serving.api.get('/api/v4/projects/7/feature_flags_client').set(harness.as(maintainer))).body.instance_id as string;
  const created = await serving.api
    .post('/api/v4/projects/7/feature_flags')
    .set(harness.as(maintainer))
    .send({
      name: 'checkout',
      version: 'new_version_flag',
      strategies: [
        { name: 'gradualRolloutUserId', parameters: { groupId: 'default', percentage: '25' }, scopes: [{ environment_scope: '*' }] },
      ],
    });
  expect(created.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await other?.service.stop();
  await harness?.stop();
});

const poll = (replica: Replica, token = instanceId) =>
  replica.api
    .get('/api/v4/feature_flags/unleash/7/client/features')
    .set(harness.as(anonymous))
    .set({ 'UNLEASH-INSTANCEID': token, 'UNLEASH-APPNAME': 'production' });

type Features = {
  features: Array<{ name: string; enabled: boolean; strategies: Array<{ name: string; parameters: Record<string, string> }> }>;
};
const featuresOf = (body: unknown) => (body as Features).features;

/**
 * Polls until the replica answers without a statement: what it answers is then kept, not read
 * (the event of an earlier change may still arrive and make it read once more).
 */
async function answeredFromMemory(replica: Replica, token = instanceId) {
  return waitFor(
    async () => {
      await poll(replica, token);
      replica.statements.length = 0;
      const answer = await poll(replica, token);
      return replica.statements.length === 0 ? answer : undefined;
    },
    { timeoutMs: EVENT_LATENCY_BOUND_MS, what: 'a poll answered from memory' },
  );
}

/** Waits until every event is published and has had time to reach both replicas, so that none arrives while statements are counted. */
async function eventsDelivered() {
  await waitFor(async () => ((await harness.sql('select 1 from outbox where published_at is null')).length === 0 ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

describe('the Unleash client endpoint between changes', () => {
  it('runs no statement for polls, registrations and metrics on any replica', async () => {
    await eventsDelivered();
    for (const replica of [serving, other]) {
      expect((await poll(replica)).status).toBe(200);
      replica.statements.length = 0;
      for (let round = 0; round < 20; round += 1) {
        const answer = await poll(replica);
        expect(answer.status).toBe(200);
        expect(featuresOf(answer.body).map((feature) => feature.name)).toEqual(['checkout']);
        const etagged = await poll(replica).set({ 'If-None-Match': answer.headers.etag! });
        expect(etagged.status).toBe(304);
      }
      const register = await replica.api
        .post('/api/v4/feature_flags/unleash/7/client/register')
        .set(harness.as(anonymous))
        .set({ 'UNLEASH-INSTANCEID': instanceId })
        .send({ appName: 'production', instanceId: 'pod-1', strategies: ['default'], started: new Date().toISOString(), interval: 15000 });
      expect(register.status).toBe(200);
      const metrics = await replica.api
        .post('/api/v4/feature_flags/unleash/7/client/metrics')
        .set(harness.as(anonymous))
        .set({ 'UNLEASH-INSTANCEID': instanceId })
        .send({});
      expect(metrics.status).toBe(200);
      expect(replica.statements).toEqual([]);
    }
  });
});

/** One kind of change, made on the serving replica; `round` keeps each round's change new. */
interface Change {
  what: string;
  /** What the change needs first, kept by the replicas that follow events (`followers`). */
  prepare?: (round: number, followers: Replica[]) => Promise<void>;
  make: (round: number) => Promise<void>;
  seen: (features: Features['features'], round: number) => boolean;
}

const asMaintainer = () => harness.as(maintainer);

const CHANGES: Change[] = [
  {
    what: 'a flag created',
    make: async (round) => {
      const created = await serving.api
        .post('/api/v4/projects/7/feature_flags')
        .set(asMaintainer())
        .send({
          name: `search_${round}`,
          version: 'new_version_flag',
          strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: 'production' }] }],
        });
      expect(created.status).toBe(201);
    },
    seen: (features, round) => features.some((feature) => feature.name === `search_${round}`),
  },
  {
    what: "a flag's strategy changed",
    make: async (round) => {
      const flag = await serving.api.get('/api/v4/projects/7/feature_flags/checkout').set(asMaintainer());
      const updated = await serving.api
        .put('/api/v4/projects/7/feature_flags/checkout')
        .set(asMaintainer())
        .send({ strategies: [{ id: flag.body.strategies[0].id, parameters: { groupId: 'default', percentage: `${round}0` } }] });
      expect(updated.status).toBe(200);
    },
    seen: (features, round) =>
      features.find((feature) => feature.name === 'checkout')?.strategies[0]?.parameters.percentage === `${round}0`,
  },
  {
    what: 'a flag toggled',
    make: async (round) => {
      const toggled = await serving.api
        .put('/api/v4/projects/7/feature_flags/checkout')
        .set(asMaintainer())
        .send({ active: round % 2 === 0 });
      expect(toggled.status).toBe(200);
    },
    seen: (features, round) => features.find((feature) => feature.name === 'checkout')?.enabled === (round % 2 === 0),
  },
  {
    what: 'a user list a strategy uses changed',
    prepare: async (round, followers) => {
      const list = await serving.api
        .post('/api/v4/projects/7/feature_flags_user_lists')
        .set(asMaintainer())
        .send({ name: `beta_${round}`, user_xids: 'ada' });
      expect(list.status).toBe(201);
      const flag = await serving.api
        .post('/api/v4/projects/7/feature_flags')
        .set(asMaintainer())
        .send({
          name: `banner_${round}`,
          version: 'new_version_flag',
          strategies: [{ name: 'svcUserList', parameters: {}, user_list_id: list.body.id, scopes: [{ environment_scope: '*' }] }],
        });
      expect(flag.status).toBe(201);
      for (const replica of followers) {
        await waitFor(
          async () => (featuresOf((await poll(replica)).body).some((feature) => feature.name === `banner_${round}`) ? true : undefined),
          {
            timeoutMs: EVENT_LATENCY_BOUND_MS,
            what: 'the new flag',
          },
        );
      }
    },
    make: async (round) => {
      const changed = await serving.api
        .put(`/api/v4/projects/7/feature_flags_user_lists/${round}`)
        .set(asMaintainer())
        .send({ user_xids: 'ada,grace' });
      expect(changed.status).toBe(200);
    },
    seen: (features, round) =>
      features.find((feature) => feature.name === `banner_${round}`)?.strategies[0]?.parameters.userIds === 'ada,grace',
  },
  {
    what: 'a flag deleted',
    make: async (round) => {
      expect((await serving.api.delete(`/api/v4/projects/7/feature_flags/search_${round}`).set(asMaintainer())).status).toBe(200);
    },
    seen: (features, round) => !features.some((feature) => feature.name === `search_${round}`),
  },
];

describe('a change', () => {
  const round = 1;

  it.each(CHANGES)('($what) is answered by the next poll on its replica, and on the other once its event arrives', async (change) => {
    await change.prepare?.(round, [serving, other]);
    expect(change.seen(featuresOf((await answeredFromMemory(serving)).body), round)).toBe(false);
    expect(change.seen(featuresOf((await answeredFromMemory(other)).body), round)).toBe(false);
    await change.make(round);
    expect(change.seen(featuresOf((await poll(serving)).body), round)).toBe(true);
    await waitFor(async () => (change.seen(featuresOf((await poll(other)).body), round) ? true : undefined), {
      timeoutMs: EVENT_LATENCY_BOUND_MS,
      what: `the other replica to see ${change.what}`,
    });
  });

  it('of parameters alone is published as an update, like any other', async () => {
    const updates = await harness.outboxEvents('delivery.feature_flag.updated');
    expect(updates.map((event) => event.data.name)).toContain('checkout');
  });

  it('(the instance id reset) refuses the old id at once on its replica and on the other once its event arrives', async () => {
    expect((await answeredFromMemory(serving)).status).toBe(200);
    expect((await answeredFromMemory(other)).status).toBe(200);
    const reset = await serving.api.post('/api/v4/projects/7/feature_flags_client/reset_token').set(asMaintainer());
    expect(reset.status).toBe(200);
    const newId = reset.body.instance_id as string;
    expect((await poll(serving)).status).toBe(401);
    expect((await poll(serving, newId)).status).toBe(200);
    await waitFor(async () => ((await poll(other)).status === 401 ? true : undefined), {
      timeoutMs: EVENT_LATENCY_BOUND_MS,
      what: 'the other replica to refuse the old instance id',
    });
    expect((await poll(other, newId)).status).toBe(200);
    instanceId = newId;
  });
});

/**
 * With no event published (both outbox relays stopped), the replica that made a change still
 * answers it at once; the other keeps what it kept until it was trusted for its bound.
 */
describe('a change while no event is published', () => {
  const round = 2;

  beforeAll(async () => {
    await eventsDelivered();
    await serving.service.relay?.stop();
    await other.service.relay?.stop();
  });

  it.each(CHANGES)('($what) is answered by the very next poll on its replica', async (change) => {
    await change.prepare?.(round, [serving]);
    expect(change.seen(featuresOf((await answeredFromMemory(serving)).body), round)).toBe(false);
    await change.make(round);
    expect(change.seen(featuresOf((await poll(serving)).body), round)).toBe(true);
  });

  let newId: string;

  it('(the instance id reset) refuses the old id on the very next poll on its replica', async () => {
    expect((await answeredFromMemory(serving)).status).toBe(200);
    const reset = await serving.api.post('/api/v4/projects/7/feature_flags_client/reset_token').set(asMaintainer());
    newId = reset.body.instance_id as string;
    expect((await poll(serving)).status).toBe(401);
    expect((await poll(serving, newId)).status).toBe(200);
  });

  it('reaches the other replica once its kept state is no longer trusted', async () => {
    await waitFor(async () => ((await poll(other)).status === 401 ? true : undefined), {
      timeoutMs: FOLLOWED_STATE_TRUST_MS + EVENT_LATENCY_BOUND_MS,
      what: 'the other replica to refuse the old instance id',
    });
    const toggled = CHANGES.find((change) => change.what === 'a flag toggled')!;
    expect(toggled.seen(featuresOf((await poll(other, newId)).body), round)).toBe(true);
  });
});
