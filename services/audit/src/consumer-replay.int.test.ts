/**
 * Audit's consumer against real PostgreSQL and Kafka: replaying every topic from the start (a
 * second consumer group on the same database) records nothing twice, a consumer stopped and
 * started again catches up with what was published meanwhile, and its lag is on `/-/metrics`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess, identityEvents } from '@platform/identity-client';
import { reviewEvents } from '@platform/review-client';
import { startService, type RunningService } from '@platform/service';
import { publishEvents, startServiceHarness, TEST_INTERNAL_SECRET, testEnvironment, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from './config.ts';
import { auditService } from './main.ts';

const topicPrefix = `audit-replay-${randomUUID()}.`;
const firstGroup = `audit-replay-${randomUUID()}`;
const replayGroup = `audit-replay-${randomUUID()}`;
const actor = { id: 31, username: 'dev', name: 'Dev' };
const project = {
  id: 100,
  name: 'App',
  path: 'app',
  pathWithNamespace: 'acme/app',
  nameWithNamespace: 'Acme / App',
  namespaceId: 3,
  visibility: 'private',
  archived: false,
};
const group = { id: 3, name: 'Acme', path: 'acme', fullPath: 'acme', fullName: 'Acme', parentId: 0, visibility: 'private' };
const access = new FakeIdentityAccess().add({ resource: 'project', id: project.id, path: project.pathWithNamespace, levels: { 31: 40 } });
let harness: ServiceHarness<RunningService>;

const push = (ref: string) =>
  reviewEvents.repositoryPushed.event({
    aggregateId: project.id,
    data: {
      projectId: project.id,
      ref,
      before: '0'.repeat(40),
      after: 'a'.repeat(40),
      commitCount: 1,
      commitTitles: ['Change'],
      commits: [],
    },
  });

/** Another instance of audit on the same database, under its own consumer group. */
function startReplica(groupId: string): Promise<RunningService> {
  return startService(
    auditService(
      readConfig({
        HTTP_PORT: '0',
        DATABASE_URL: harness.databaseUrl,
        KAFKA_BROKERS: testEnvironment().kafkaBrokers.join(','),
        KAFKA_TOPIC_PREFIX: topicPrefix,
        KAFKA_GROUP_ID: groupId,
        INTERNAL_SECRET: TEST_INTERNAL_SECRET,
        LOG_LEVEL: 'silent',
      }),
      { identityAccess: access },
    ),
  );
}

async function count(sql: string, values: unknown[] = []): Promise<number> {
  const [row] = await harness.sql<{ count: number }>(sql, values);
  return row?.count ?? 0;
}

const processedBy = (groupId: string) => count('select count(*)::int as count from processed_events where consumer = $1', [groupId]);
const recorded = async () => ({
  audit: await count('select count(*)::int as count from audit_events'),
  activity: await count('select count(*)::int as count from activity_events'),
});

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'audit_replay',
    env: { KAFKA_TOPIC_PREFIX: topicPrefix, KAFKA_GROUP_ID: firstGroup },
    start: (env) => startService(auditService(readConfig(env), { identityAccess: access })),
  });
  await publishEvents({
    topicPrefix,
    actor,
    events: [
      identityEvents.groupCreated.event({ aggregateId: group.id, data: { group } }),
      identityEvents.projectCreated.event({ aggregateId: project.id, data: { project } }),
      push('refs/heads/main'),
    ],
  });
  await waitFor(async () => ((await processedBy(firstGroup)) === 3 ? true : undefined), { what: 'three events applied' });
});

afterAll(async () => {
  await harness?.stop();
});

describe("audit's consumer", () => {
  it('shows its lag per consumer group, topic and partition on /-/metrics', async () => {
    const response = await harness.api.get('/-/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toContain('# TYPE kafka_consumer_lag gauge');
    expect(response.text).toMatch(
      new RegExp(
        `kafka_consumer_lag\\{group="${firstGroup}",topic="${topicPrefix.replace(/\./g, '\\.')}review\\.events",partition="\\d"\\} 0`,
      ),
    );
  });

  it('records nothing twice when every topic is replayed from the start, and a restarted consumer catches up', async () => {
    const before = await recorded();
    expect(before).toEqual({ audit: 2, activity: 2 });

    let replica = await startReplica(replayGroup);
    await waitFor(async () => ((await processedBy(replayGroup)) === 3 ? true : undefined), { what: 'the replay applied' });
    expect(await recorded()).toEqual(before);

    await replica.stop();
    await publishEvents({ topicPrefix, actor, events: [push('refs/heads/next')] });
    await waitFor(async () => ((await recorded()).activity === 3 ? true : undefined), { what: 'the new push recorded' });
    replica = await startReplica(replayGroup);
    try {
      await waitFor(async () => ((await processedBy(replayGroup)) === 4 ? true : undefined), { what: 'the restarted consumer caught up' });
      expect(await recorded()).toEqual({ audit: 2, activity: 3 });
    } finally {
      await replica.stop();
    }
  });
});
