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
/** A group whose audit events the keyset tests write straight into the table. */
const paged = { id: 6, path: 'paged' };
const access = new FakeIdentityAccess()
  .add({ resource: 'group', id: group.id, path: group.fullPath, levels: { 21: 50, 22: 30 } })
  .add({ resource: 'group', id: paged.id, path: paged.path, levels: { 21: 50 } });
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
            privateProfile: false,
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

  it('is ready, and reports its consumer and identity channel', async () => {
    const response = await waitFor(
      async () => {
        const readiness = await harness.api.get('/-/readiness');
        return readiness.body.checks?.consumer === 'running' ? readiness : undefined;
      },
      { what: 'the consumer running' },
    );
    expect(response.status).toBe(200);
    expect(response.body.checks).toMatchObject({ consumer: 'running', identityChannel: 'in memory' });
  });
});

/** Audit events of `entityId`, written as the consumer writes them; their ids, oldest first. */
async function insertEvents(entityType: string, entityId: number, count: number): Promise<number[]> {
  const rows = await harness.sql<{ id: string }>(
    `insert into audit_events (author_id, entity_id, entity_type, event_name, details, source_event_id, created_at)
     select 21, $1, $2, 'group_updated', '{"custom_message": "paged"}', gen_random_uuid(), now() - make_interval(secs => $3 - i)
     from generate_series(1, $3::int) i returning id`,
    [entityId, entityType, count],
  );
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/** Follows `Link: <...>; rel="next"` from `path` to the last page; the ids of every page. */
async function keysetPages(path: string, caller: Parameters<typeof harness.as>[0]): Promise<number[][]> {
  const pages: number[][] = [];
  let next: string | undefined = path;
  while (next) {
    const response: { status: number; headers: Record<string, string>; body: unknown } = await harness.api
      .get(next)
      .set(harness.as(caller));
    expect(response.status).toBe(200);
    // Keyset pages carry no totals and no page numbers.
    expect(response.headers['x-total']).toBeUndefined();
    expect(response.headers['x-next-page']).toBeUndefined();
    pages.push((response.body as Array<{ id: number }>).map((event) => event.id));
    const link: string | undefined = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
    next = link ? `${new URL(link).pathname}${new URL(link).search}` : undefined;
    expect(pages.length).toBeLessThan(10);
  }
  return pages;
}

describe('keyset pagination', () => {
  it("pages a group's audit events by id, newest first, each page linked to the next", async () => {
    const ids = await insertEvents('Group', paged.id, 5);
    const pages = await keysetPages(`/api/v4/groups/${paged.id}/audit_events?pagination=keyset&per_page=2`, owner);
    expect(pages).toEqual([ids.slice(3).reverse(), ids.slice(1, 3).reverse(), ids.slice(0, 1)]);
  });

  it('pages instance audit events oldest first with sort=asc, filters kept across pages', async () => {
    const ids = await insertEvents('Project', 31, 3);
    const pages = await keysetPages(
      '/api/v4/audit_events?pagination=keyset&order_by=id&sort=asc&per_page=2&entity_type=Project&entity_id=31',
      admin,
    );
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2)]);
  });

  it('orders offset pages by id when asked', async () => {
    const ids = await insertEvents('Project', 32, 3);
    const response = await harness.api
      .get('/api/v4/audit_events')
      .query({ entity_type: 'Project', entity_id: 32, order_by: 'id', sort: 'asc' })
      .set(harness.as(admin));
    expect(response.status).toBe(200);
    expect(response.body.map((event: { id: number }) => event.id)).toEqual(ids);
    expect(response.headers['x-total']).toBe('3');
  });

  it.each([
    [{ pagination: 'keyset', cursor: 'not-a-cursor' }, 'cursor is invalid'],
    [{ pagination: 'keyset', order_by: 'created_at' }, 'order_by does not have a valid value'],
    [{ pagination: 'pages' }, 'pagination does not have a valid value'],
    [{ sort: 'sideways' }, 'sort does not have a valid value'],
  ])('refuses %j with 400 naming the parameter', async (query, error) => {
    const response = await harness.api.get(`/api/v4/groups/${paged.id}/audit_events`).query(query).set(harness.as(owner));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
  });

  it('reads a keyset page of one entity straight from an index, in id order', async () => {
    await harness.sql(
      `insert into audit_events (author_id, entity_id, entity_type, event_name, details, source_event_id, created_at)
       select 21, i % 500, 'Project', 'project_updated', '{}', gen_random_uuid(), now() from generate_series(1, 5000) i`,
    );
    await harness.sql('analyze audit_events');
    const [row] = await harness.sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (format json) select * from audit_events
       where entity_type = 'Project' and entity_id = 7 and id < 4000 order by id desc limit 21`,
    );
    const nodes = nodesOf(row!['QUERY PLAN'][0]!.Plan);
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
    expect(nodes.map((node) => node['Index Name']).filter(Boolean)).toEqual(['audit_events_entity_id_idx']);
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}
