/**
 * Audit on its own against real PostgreSQL and Kafka: identity's events published to Kafka
 * become audit events, served to administrators and, for a group, to its owners (identity's
 * access answers come from a fake).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess, identityEvents } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { adminCaller, publishEvents, startServiceHarness, userCaller, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { auditService } from '../../main.ts';

const topicPrefix = `audit-test-${randomUUID()}.`;
const admin = adminCaller();
const owner = userCaller(21, 'owner');
const developer = userCaller(22, 'developer');
const group = { id: 5, name: 'Audited', path: 'audited', fullPath: 'audited', fullName: 'Audited', parentId: 0, visibility: 'private' };
const access = new FakeIdentityAccess().add({ resource: 'group', id: group.id, path: group.fullPath, levels: { 21: 50, 22: 30 } });
let harness: ServiceHarness<RunningService>;

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'audit',
    // Its own topics and group, so that no other test's identity events reach it.
    env: { KAFKA_TOPIC_PREFIX: topicPrefix, KAFKA_GROUP_ID: `audit-test-${randomUUID()}` },
    start: (env) => startService(auditService(readConfig(env), { identityAccess: access })),
  });
  await publishEvents({
    topicPrefix,
    actor: { id: owner.userId, username: owner.username, name: owner.name },
    events: [
      identityEvents.groupCreated.event({ aggregateId: group.id, data: { group } }),
      identityEvents.groupUpdated.event({
        aggregateId: group.id,
        data: { group, changes: [{ attribute: 'visibility', from: 'public', to: 'private' }] },
      }),
      // Another entity's: not among the group's.
      identityEvents.userBlocked.event({
        aggregateId: developer.userId,
        data: {
          user: {
            id: developer.userId,
            username: 'developer',
            name: 'developer',
            email: 'd@example.com',
            isAdmin: false,
            state: 'blocked',
          },
        },
      }),
    ],
  });
});

afterAll(async () => {
  await harness?.stop();
});

async function groupEvents(): Promise<Array<{ event_name: string; details: Record<string, unknown> }>> {
  return waitFor(
    async () => {
      const response = await harness.api.get(`/api/v4/groups/${group.id}/audit_events`).set(harness.as(owner));
      return response.status === 200 && response.body.length >= 2 ? response.body : undefined;
    },
    { what: 'two group audit events' },
  );
}

describe('audit events from identity events', () => {
  it('records each audited event once, newest first, for the group owner', async () => {
    const events = await groupEvents();
    expect(events.map((event) => event.event_name)).toEqual(['group_updated', 'group_created']);
    expect(events[0]?.details).toMatchObject({ change: 'visibility', from: 'public', to: 'private', author_name: 'owner' });
  });

  it('lists them instance-wide for administrators only', async () => {
    await groupEvents();
    const listed = await harness.api.get('/api/v4/audit_events').query({ entity_type: 'Group' }).set(harness.as(admin));
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    const users = await waitFor(
      async () => {
        const response = await harness.api.get('/api/v4/audit_events').query({ entity_type: 'User' }).set(harness.as(admin));
        return response.body.length === 1 ? response.body : undefined;
      },
      { what: "the user's audit event" },
    );
    expect(users[0]).toMatchObject({ entity_id: developer.userId, event_name: 'user_blocked' });
    expect((await harness.api.get('/api/v4/audit_events').set(harness.as(owner))).status).toBe(403);
  });

  it('refuses group audit events to a developer, and hides unknown groups', async () => {
    expect((await harness.api.get(`/api/v4/groups/${group.id}/audit_events`).set(harness.as(developer))).status).toBe(403);
    expect((await harness.api.get('/api/v4/groups/999/audit_events').set(harness.as(owner))).status).toBe(404);
  });

  it('is ready once its consumer joined', async () => {
    const response = await harness.api.get('/-/readiness');
    expect(response.status).toBe(200);
    expect(response.body.checks).toMatchObject({ consumer: 'running', identityChannel: 'in memory' });
  });
});
