/**
 * Activity events on their own against real PostgreSQL and Kafka: identity's and review's events
 * published to Kafka become activity events, listed through the three endpoints with every filter,
 * only for callers who may see each event's project (identity's answers come from a fake).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess, identityEvents } from '@platform/identity-client';
import { reviewEvents } from '@platform/review-client';
import { MembershipSourceType } from '@platform/proto/identity/v1/namespace-events';
import type { UserSnapshot } from '@platform/proto/identity/v1/events';
import { startService, type RunningService } from '@platform/service';
import {
  adminCaller,
  gitlabSchemaErrors,
  publishEvents,
  startServiceHarness,
  userCaller,
  waitFor,
  type ServiceHarness,
} from '@platform/testing';
import { readConfig } from '../../config.ts';
import { auditService } from '../../main.ts';

const topicPrefix = `activity-test-${randomUUID()}.`;
const admin = adminCaller();
const dev = userCaller(31, 'dev');
const reporter = userCaller(32, 'reporter');
const hidden = userCaller(34, 'hidden');
/** Private projects: `app` has dev and reporter as members, `secret` only dev; `site` is public. */
const app = { id: 100, path: 'acme/app' };
const secret = { id: 102, path: 'acme/secret' };
const site = { id: 101, path: 'acme/site' };
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: app.id, path: app.path, levels: { 31: 40, 32: 20 } })
  .add({ resource: 'project', id: secret.id, path: secret.path, levels: { 31: 40 } })
  .add({ resource: 'project', id: site.id, path: site.path, isPublic: true, levels: { 34: 30 } });
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);
const mergeRequest = {
  projectId: app.id,
  mergeRequestId: 900,
  iid: 1,
  title: 'Add x',
  state: 'opened',
  sourceBranch: 'x',
  targetBranch: 'main',
  authorId: 31,
  mergeCommitSha: '',
  description: '',
  sourceProjectId: app.id,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  assigneeIds: [],
  reviewerIds: [],
  milestoneId: 0,
  mergeStatus: 'unchecked',
  timeEstimate: 0,
  totalTimeSpent: 0,
  labels: [],
};
/** A push replayed with its id, to show a redelivery records nothing twice. */
const replayedPushId = randomUUID();
let harness: ServiceHarness<RunningService>;

function user(caller: { userId: number; username: string }, privateProfile = false): UserSnapshot {
  return {
    id: caller.userId,
    username: caller.username,
    name: caller.username,
    email: `${caller.username}@example.com`,
    isAdmin: false,
    state: 'active',
    privateProfile,
  };
}

function actor(caller: { userId: number; username: string }) {
  return { id: caller.userId, username: caller.username, name: caller.username };
}

const push = (projectId: number, ref: string, before: string, after: string) =>
  reviewEvents.repositoryPushed.event({
    aggregateId: projectId,
    data: { projectId, ref, before, after, commitCount: 1, commitTitles: ['Change'], commits: [] },
  });

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'activity',
    env: { KAFKA_TOPIC_PREFIX: topicPrefix, KAFKA_GROUP_ID: `activity-test-${randomUUID()}`, ACTIVITY_RETENTION_INTERVAL_MS: '1000' },
    start: (env) => startService(auditService(readConfig(env), { identityAccess: access })),
  });
  await publishEvents({
    topicPrefix,
    events: [dev, reporter, hidden].map((caller) =>
      identityEvents.userCreated.event({ aggregateId: caller.userId, data: { user: user(caller, caller === hidden) } }),
    ),
  });
  await publishEvents({
    topicPrefix,
    actor: actor(dev),
    events: [
      { ...push(app.id, 'refs/heads/main', ZERO, A), occurredAt: '2026-01-01T12:00:00.000Z' },
      { ...push(app.id, 'refs/heads/main', A, B), occurredAt: '2026-01-02T12:00:00.000Z', id: replayedPushId },
      { ...reviewEvents.mergeRequestCreated.event({ aggregateId: app.id, data: mergeRequest }), occurredAt: '2026-01-03T12:00:00.000Z' },
      {
        ...reviewEvents.mergeRequestMerged.event({ aggregateId: app.id, data: { ...mergeRequest, state: 'merged' } }),
        occurredAt: '2026-01-04T12:00:00.000Z',
      },
      { ...push(secret.id, 'refs/heads/main', ZERO, A), occurredAt: '2026-01-05T12:00:00.000Z' },
      {
        ...identityEvents.memberAdded.event({
          aggregateId: app.id,
          data: {
            member: {
              id: 1,
              sourceType: MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_PROJECT,
              sourceId: app.id,
              sourceFullPath: app.path,
              userId: reporter.userId,
              username: reporter.username,
              userName: reporter.username,
              accessLevel: 20,
              expiresAt: '',
              userEmail: '',
              sourceName: '',
            },
          },
        }),
        occurredAt: '2026-01-06T12:00:00.000Z',
      },
    ],
  });
  await publishEvents({
    topicPrefix,
    actor: actor(hidden),
    events: [{ ...push(site.id, 'refs/heads/main', ZERO, A), occurredAt: '2026-01-07T12:00:00.000Z' }],
  });
  await waitFor(
    async () => {
      const [row] = await harness.sql<{ count: number }>('select count(*)::int as count from activity_events');
      return row?.count === 7 ? true : undefined;
    },
    { what: 'seven activity events' },
  );
});

afterAll(async () => {
  await harness?.stop();
});

type EventBody = {
  action_name: string;
  project_id: number;
  author: Record<string, unknown>;
  target_type: string | null;
  push_data?: Record<string, unknown>;
};

async function list(path: string, caller: Parameters<ServiceHarness<RunningService>['as']>[0], query: Record<string, string> = {}) {
  return harness.api.get(path).query(query).set(harness.as(caller));
}

describe('project events', () => {
  it("lists a project's events newest first, in GitLab's shape, to a member", async () => {
    const response = await list(`/api/v4/projects/${app.id}/events`, reporter);
    expect(response.status).toBe(200);
    const events = response.body as EventBody[];
    expect(events.map((event) => event.action_name)).toEqual(['joined', 'accepted', 'opened', 'pushed to', 'pushed new']);
    expect(response.headers['x-total']).toBe('5');
    expect(events[1]).toMatchObject({
      target_type: 'MergeRequest',
      target_iid: 1,
      target_id: 900,
      target_title: 'Add x',
      author_username: 'dev',
    });
    expect(events[3]?.push_data).toEqual({
      commit_count: 1,
      action: 'pushed',
      ref_type: 'branch',
      commit_from: A,
      commit_to: B,
      ref: 'main',
      commit_title: 'Change',
      ref_count: null,
    });
    for (const event of events) expect(gitlabSchemaErrors('user/basic.json', event.author)).toEqual([]);
  });

  it('filters by action, target type and exclusive dates, sorts, and pages', async () => {
    const path = `/api/v4/projects/${encodeURIComponent(app.path)}/events`;
    expect((await list(path, reporter, { action: 'pushed' })).body).toHaveLength(2);
    expect((await list(path, reporter, { target_type: 'merge_request' })).body.map((event: EventBody) => event.action_name)).toEqual([
      'accepted',
      'opened',
    ]);
    expect((await list(path, reporter, { target_type: 'project' })).body).toEqual([]);
    // after=01-02 starts on 01-03; before=01-04 ends with 01-03.
    expect(
      (await list(path, reporter, { after: '2026-01-02', before: '2026-01-04' })).body.map((event: EventBody) => event.action_name),
    ).toEqual(['opened']);
    expect((await list(path, reporter, { sort: 'asc' })).body[0].action_name).toBe('pushed new');
    const second = await list(path, reporter, { per_page: '2', page: '2' });
    expect(second.body.map((event: EventBody) => event.action_name)).toEqual(['opened', 'pushed to']);
    expect(second.headers).toMatchObject({ 'x-total': '5', 'x-total-pages': '3', 'x-next-page': '3', 'x-prev-page': '1' });
  });

  it('refuses filters GitLab does not know with 400', async () => {
    const path = `/api/v4/projects/${app.id}/events`;
    const refused: Array<Record<string, string>> = [
      { action: 'opened' },
      { target_type: 'MergeRequest' },
      { before: '2026-13-01' },
      { after: 'yesterday' },
      { after: '0000-01-01' },
      { before: '9999-12-31' },
      { sort: 'up' },
    ];
    for (const query of refused) {
      const response = await list(path, reporter, query);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
  });

  it('answers 404 for a project the caller may not see', async () => {
    expect((await list(`/api/v4/projects/${secret.id}/events`, reporter)).status).toBe(404);
    expect((await list(`/api/v4/projects/${secret.id}/events`, { kind: 'anonymous' })).status).toBe(404);
    expect((await list(`/api/v4/projects/${site.id}/events`, { kind: 'anonymous' })).body).toHaveLength(1);
  });
});

describe("a user's events", () => {
  it('shows only the events in projects the caller may see, by id or username in any case', async () => {
    const seenByReporter = await list('/api/v4/users/DEV/events', reporter);
    expect(seenByReporter.status).toBe(200);
    expect(seenByReporter.body.map((event: EventBody) => event.project_id)).toEqual([app.id, app.id, app.id, app.id]);
    const seenByAdmin = await list(`/api/v4/users/${dev.userId}/events`, admin);
    expect(seenByAdmin.body.map((event: EventBody) => event.project_id)).toEqual([secret.id, app.id, app.id, app.id, app.id]);
    const paged = await list(`/api/v4/users/${dev.userId}/events`, reporter, { per_page: '3' });
    expect(paged.body).toHaveLength(3);
    expect(paged.headers['x-next-page']).toBe('2');
  });

  it('hides a private profile from others, not from its owner or administrators', async () => {
    expect((await list('/api/v4/users/hidden/events', reporter)).body).toEqual([]);
    expect((await list('/api/v4/users/hidden/events', { kind: 'anonymous' })).body).toEqual([]);
    expect((await list('/api/v4/users/hidden/events', hidden)).body).toHaveLength(1);
    expect((await list('/api/v4/users/hidden/events', admin)).body).toHaveLength(1);
  });

  it('answers 404 for a user nobody has heard of', async () => {
    const response = await list('/api/v4/users/nobody/events', admin);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 User Not Found' });
    expect((await list('/api/v4/users/99999999999999/events', admin)).status).toBe(404);
  });
});

describe("the caller's events", () => {
  it("lists one's own events, or with scope=all everybody's in the projects one is a member of", async () => {
    expect((await list('/api/v4/events', dev)).body).toHaveLength(5);
    expect((await list('/api/v4/events', reporter)).body.map((event: EventBody) => event.action_name)).toEqual(['joined']);
    const all = await list('/api/v4/events', reporter, { scope: 'all' });
    // Everything in `app`; not the public `site`, which reporter is no member of.
    expect(all.body.map((event: EventBody) => event.project_id)).toEqual([app.id, app.id, app.id, app.id, app.id]);
    expect((await list('/api/v4/events', { kind: 'anonymous' })).status).toBe(401);
  });
});

describe('recording', () => {
  it('records nothing twice when an event is delivered again', async () => {
    await publishEvents({ topicPrefix, actor: actor(dev), events: [{ ...push(app.id, 'refs/heads/main', A, B), id: replayedPushId }] });
    // A later event through the same partition (key) shows the replay was consumed before it.
    await publishEvents({ topicPrefix, actor: actor(dev), events: [{ ...push(app.id, 'refs/heads/next', ZERO, B) }] });
    await waitFor(async () => ((await list(`/api/v4/projects/${app.id}/events`, reporter)).body.length === 6 ? true : undefined), {
      what: 'the push after the replay',
    });
    const [row] = await harness.sql<{ count: number }>('select count(*)::int as count from activity_events where source_event_id = $1', [
      replayedPushId,
    ]);
    expect(row?.count).toBe(1);
  });

  it('removes events past two years on schedule, and those of a deleted project', async () => {
    await harness.sql(
      `insert into activity_events (project_id, author_id, author_username, author_name, action, source_event_id, created_at)
       values ($1, 31, 'dev', 'dev', 'created', $2, now() - interval '2 years 1 day'), ($1, 31, 'dev', 'dev', 'created', $3, now() - interval '1 year')`,
      [site.id, randomUUID(), randomUUID()],
    );
    await waitFor(
      async () => {
        const rows = await harness.sql("select 1 from activity_events where project_id = $1 and created_at < now() - interval '2 years'", [
          site.id,
        ]);
        return rows.length === 0 ? true : undefined;
      },
      { what: 'the old event removed' },
    );
    expect(await harness.sql('select 1 from activity_events where project_id = $1', [site.id])).toHaveLength(2);

    const project = {
      id: site.id,
      name: 'Site',
      path: 'site',
      pathWithNamespace: site.path,
      nameWithNamespace: 'Acme / Site',
      namespaceId: 3,
      visibility: 'public',
      archived: false,
    };
    await publishEvents({
      topicPrefix,
      actor: actor(dev),
      events: [identityEvents.projectDeleted.event({ aggregateId: site.id, data: { project } })],
    });
    await waitFor(
      async () => ((await harness.sql('select 1 from activity_events where project_id = $1', [site.id])).length === 0 ? true : undefined),
      {
        what: "the deleted project's events removed",
      },
    );
  });
});
