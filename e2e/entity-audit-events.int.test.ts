/**
 * Cross-service integration test: both services run in-process here (not as separate processes
 * behind the gateway, as the *.e2e tests do), so it can call each service directly.
 *
 * Group and project audit events end to end: identity records changes in its outbox, its relay
 * publishes them to real Kafka, audit consumes them into real PostgreSQL and serves them, asking
 * identity over real gRPC who may read them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { Caller } from '@platform/auth';
import {
  adminCaller,
  callerHeader,
  createTestDatabase,
  TEST_INTERNAL_SECRET,
  testEnvironment,
  userCaller,
  waitFor,
  type TestDatabase,
} from '@platform/testing';
import { startService, type RunningService } from '@platform/service';
import { identityService } from '@platform/identity/main';
import { auditService } from '@platform/audit/main';
import { tmpdir } from 'node:os';

const admin = adminCaller();
let identityDatabase: TestDatabase;
let auditDatabase: TestDatabase;
let identity: RunningService;
let audit: RunningService;
let identityApi: ReturnType<typeof request>;
let auditApi: ReturnType<typeof request>;
let owner: Caller;
let maintainer: Caller;
let developer: Caller;
let groupId: number;
let projectId: number;

async function createUser(username: string): Promise<Caller> {
  const response = await identityApi
    .post('/api/v4/users')
    .set(callerHeader(admin))
    .send({ email: `${username}@example.com`, name: username, username, password: 'a-long-enough-password' });
  return userCaller(response.body.id as number, username);
}

interface AuditEventBody {
  id: number;
  entity_type: string;
  entity_id: number;
  event_name: string;
  created_at: string;
  details: Record<string, unknown>;
}

/** Waits until audit has recorded at least `count` events for the path, then returns them. */
async function eventsOf(path: string, count: number, caller: Caller = admin): Promise<AuditEventBody[]> {
  return waitFor(
    async () => {
      const response = await auditApi.get(path).query({ per_page: 100 }).set(callerHeader(caller));
      return response.status === 200 && response.body.length >= count ? (response.body as AuditEventBody[]) : undefined;
    },
    { what: `${count} audit events at ${path}` },
  );
}

beforeAll(async () => {
  const { kafkaBrokers } = testEnvironment();
  // Its own topics, so that no other test's identity events reach this audit service.
  const kafkaTopicPrefix = `entity-audit-${randomUUID()}.`;
  identityDatabase = createTestDatabase('audit_identity');
  auditDatabase = createTestDatabase('audit_entities');
  identity = await startService(
    identityService({
      HTTP_PORT: 0,
      GRPC_PORT: 0,
      GRPC_HOST: '127.0.0.1',
      DATABASE_URL: identityDatabase.url,
      KAFKA_BROKERS: kafkaBrokers,
      KAFKA_TOPIC_PREFIX: kafkaTopicPrefix,
      INTERNAL_SECRET: TEST_INTERNAL_SECRET,
      EXTERNAL_URL: 'http://platform.test',
      ROOT_TOKEN: 'glpat-integration-root-token-0001',
      KAFKA_GROUP_ID: 'identity',
      PLATFORM_REVISION: 'Unknown',
      PROJECT_DELETION_INTERVAL_MS: 60_000,
      // No avatar is uploaded here: nothing is written below it.
      DATA_DIR: tmpdir(),
      LOG_LEVEL: 'silent',
    }),
  );
  audit = await startService(
    auditService({
      HTTP_PORT: 0,
      DATABASE_URL: auditDatabase.url,
      KAFKA_BROKERS: kafkaBrokers,
      KAFKA_TOPIC_PREFIX: kafkaTopicPrefix,
      KAFKA_GROUP_ID: `audit-test-${randomUUID()}`,
      INTERNAL_SECRET: TEST_INTERNAL_SECRET,
      IDENTITY_GRPC_ADDRESS: `127.0.0.1:${identity.grpcPort}`,
      EXTERNAL_URL: 'http://platform.test',
      ACTIVITY_ACCESS_CACHE_TTL_MS: 10_000,
      ACTIVITY_RETENTION_INTERVAL_MS: 3_600_000,
      LOG_LEVEL: 'silent',
    }),
  );
  identityApi = request(`http://127.0.0.1:${identity.httpPort}`);
  auditApi = request(`http://127.0.0.1:${audit.httpPort}`);

  owner = await createUser('audowner');
  maintainer = await createUser('audmaintainer');
  developer = await createUser('auddeveloper');
  groupId = (await identityApi.post('/api/v4/groups').set(callerHeader(owner)).send({ name: 'Audited', path: 'audited' })).body.id;
  projectId = (await identityApi.post('/api/v4/projects').set(callerHeader(owner)).send({ name: 'Ledger', namespace_id: groupId })).body.id;
  for (const [user, level] of [
    [maintainer, 40],
    [developer, 30],
  ] as const) {
    await identityApi
      .post(`/api/v4/groups/${groupId}/members`)
      .set(callerHeader(owner))
      .send({ user_id: (user as { userId: number }).userId, access_level: level });
  }
  await identityApi
    .put(`/api/v4/groups/${groupId}/members/${(developer as { userId: number }).userId}`)
    .set(callerHeader(owner))
    .send({ access_level: 20 });
  await identityApi.put(`/api/v4/projects/${projectId}`).set(callerHeader(owner)).send({ visibility: 'private', description: 'books' });
}, 120_000);

afterAll(async () => {
  await audit?.stop();
  await identity?.stop();
  await auditDatabase?.drop();
  await identityDatabase?.drop();
});

describe('GET /groups/:id/audit_events', () => {
  it('records group creation and membership changes as group audit events', async () => {
    const events = await eventsOf(`/api/v4/groups/${groupId}/audit_events`, 5);
    const byName = (name: string) => events.filter((event) => event.event_name === name);
    expect(events.every((event) => event.entity_type === 'Group' && event.entity_id === groupId)).toBe(true);
    expect(byName('group_created')[0]?.details).toMatchObject({
      add: 'group',
      author_name: 'audowner',
      target_type: 'Group',
      target_details: 'audited',
      entity_path: 'audited',
    });
    expect(byName('member_created').map((event) => event.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ add: 'user_access', as: 'Maintainer', target_details: 'audmaintainer', entity_path: 'audited' }),
      ]),
    );
    expect(byName('member_updated')[0]?.details).toMatchObject({
      change: 'access_level',
      from: 'Developer',
      to: 'Reporter',
      target_details: 'auddeveloper',
    });
  });

  it('accepts a URL-encoded path and filters by created_after and created_before', async () => {
    const all = await eventsOf('/api/v4/groups/audited/audit_events', 5);
    const newest = all[0] as AuditEventBody;
    const after = await auditApi
      .get('/api/v4/groups/audited/audit_events')
      .query({ created_after: newest.created_at })
      .set(callerHeader(owner));
    expect(after.body.map((event: AuditEventBody) => event.id)).toEqual(
      all.filter((event) => event.created_at >= newest.created_at).map((event) => event.id),
    );
    const before = await auditApi
      .get('/api/v4/groups/audited/audit_events')
      .query({ created_before: '2000-01-01' })
      .set(callerHeader(owner));
    expect(before.body).toEqual([]);
    const bad = await auditApi.get('/api/v4/groups/audited/audit_events').query({ created_after: 'yesterday' }).set(callerHeader(owner));
    expect(bad.status).toBe(400);
  });

  it('serves one event of the group, and 404 for an event of something else', async () => {
    const [first] = await eventsOf(`/api/v4/groups/${groupId}/audit_events`, 5);
    const single = await auditApi.get(`/api/v4/groups/${groupId}/audit_events/${first?.id}`).set(callerHeader(owner));
    expect(single.body).toMatchObject({ id: first?.id, entity_type: 'Group' });
    const [projectEvent] = await eventsOf(`/api/v4/projects/${projectId}/audit_events`, 2);
    expect((await auditApi.get(`/api/v4/groups/${groupId}/audit_events/${projectEvent?.id}`).set(callerHeader(owner))).status).toBe(404);
  });

  it('is for group owners and administrators: 403 for maintainers, 404 for strangers, 401 anonymously', async () => {
    expect((await auditApi.get(`/api/v4/groups/${groupId}/audit_events`).set(callerHeader(maintainer))).status).toBe(403);
    const stranger = await createUser('audstranger');
    const hidden = await auditApi.get(`/api/v4/groups/${groupId}/audit_events`).set(callerHeader(stranger));
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
    expect((await auditApi.get(`/api/v4/groups/${groupId}/audit_events`).set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);
    expect((await auditApi.get('/api/v4/groups/424242/audit_events').set(callerHeader(admin))).status).toBe(404);
  });
});

describe('GET /projects/:id/audit_events', () => {
  it('records project creation and changes, for maintainers and above', async () => {
    const events = await eventsOf(`/api/v4/projects/${encodeURIComponent('audited/ledger')}`.concat('/audit_events'), 2, maintainer);
    expect(events.map((event) => event.event_name)).toEqual(expect.arrayContaining(['project_created', 'project_updated']));
    const updated = events.find((event) => event.event_name === 'project_updated');
    expect(updated?.details).toMatchObject({ entity_path: 'audited/ledger', target_type: 'Project' });
    // Visibility was private already: only the description changed.
    expect(updated?.details).toMatchObject({ change: 'description', from: '', to: 'books' });
    expect((await auditApi.get(`/api/v4/projects/${projectId}/audit_events`).set(callerHeader(developer))).status).toBe(403);
  });
});

describe('GET /audit_events', () => {
  it('filters instance audit events by entity_type and entity_id', async () => {
    await eventsOf(`/api/v4/projects/${projectId}/audit_events`, 2);
    const projects = await auditApi
      .get('/api/v4/audit_events')
      .query({ entity_type: 'Project', entity_id: projectId })
      .set(callerHeader(admin));
    expect(projects.body.length).toBeGreaterThanOrEqual(2);
    expect(projects.body.every((event: AuditEventBody) => event.entity_type === 'Project' && event.entity_id === projectId)).toBe(true);
    const groups = await auditApi.get('/api/v4/audit_events').query({ entity_type: 'Group' }).set(callerHeader(admin));
    expect(groups.body.every((event: AuditEventBody) => event.entity_type === 'Group')).toBe(true);
  });
});
