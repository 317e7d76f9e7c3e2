/**
 * Notes and discussions on merge requests, issues and commits against real PostgreSQL, Kafka and
 * repositories on disk (identity's answers come from a fake): threads, replies, resolution and
 * `blocking_discussions_resolved`, diff notes placed on a diff version, issue notes and commit
 * comments, in GitLab's shapes and words.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthenticatedCaller } from '@platform/auth';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';

const author = userCaller(61, 'author');
const maintainer = userCaller(62, 'boss');
const reporter = userCaller(63, 'viewer');
const guest = userCaller(64, 'guest');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 31, path: 'acme/talk', levels: { 61: 30, 62: 40, 63: 20, 64: 10 } });
const users = new FixedUserDirectory([
  { id: 61, username: 'author' },
  { id: 62, username: 'boss' },
  { id: 63, username: 'viewer' },
  { id: 64, username: 'guest' },
]);
let harness: ServiceHarness<RunningService>;
let dataDir: string;

const api = (method: 'get' | 'post' | 'put' | 'delete', url: string, caller: AuthenticatedCaller = author) =>
  harness.api[method](`/api/v4/projects/31${url}`).set(harness.as(caller));
let diffRefs: { base_sha: string; start_sha: string; head_sha: string };
let featureSha: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-discussions-'));
  harness = await startServiceHarness({
    label: 'review_discussions',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users })),
  });
  const readme = await api('post', '/repository/files/README.md', maintainer).send({
    branch: 'main',
    content: 'one\ntwo\nthree\n',
    commit_message: 'Add README',
  });
  expect(readme.status).toBe(201);
  const change = await api('post', '/repository/commits').send({
    branch: 'feature',
    start_branch: 'main',
    commit_message: 'Change the second line',
    actions: [{ action: 'update', file_path: 'README.md', content: 'one\nTWO\nthree\n' }],
  });
  expect(change.status).toBe(201);
  featureSha = change.body.id;
  const opened = await api('post', '/merge_requests').send({ source_branch: 'feature', target_branch: 'main', title: 'Shout' });
  expect(opened.status).toBe(201);
  diffRefs = (await api('get', '/merge_requests/1')).body.diff_refs;
  expect(diffRefs).toEqual(expect.objectContaining({ head_sha: featureSha }));
  expect((await api('post', '/issues').send({ title: 'Talk about it' })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('merge request discussions', () => {
  let thread: { id: string; notes: Array<{ id: number }> };

  it('starts a resolvable thread that blocks the merge request until it is resolved', async () => {
    const started = await api('post', '/merge_requests/1/discussions', reporter).send({ body: 'Why shout?' });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      individual_note: false,
      notes: [
        {
          type: 'DiscussionNote',
          body: 'Why shout?',
          author: expect.objectContaining({ username: 'viewer' }),
          noteable_type: 'MergeRequest',
          noteable_iid: 1,
          resolvable: true,
          resolved: false,
          resolved_by: null,
          resolved_at: null,
        },
      ],
    });
    thread = started.body;
    expect((await api('get', '/merge_requests/1')).body.blocking_discussions_resolved).toBe(false);
    expect((await api('get', '/merge_requests')).body[0].blocking_discussions_resolved).toBe(false);

    const reply = await api('post', `/merge_requests/1/discussions/${thread.id}/notes`).send({ body: 'Emphasis' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ type: 'DiscussionNote', body: 'Emphasis', resolvable: true, resolved: false });

    // A reporter may not resolve another's merge request's threads; its author may.
    expect((await api('put', `/merge_requests/1/discussions/${thread.id}`, reporter).send({ resolved: true })).status).toBe(403);
    const resolved = await api('put', `/merge_requests/1/discussions/${thread.id}`).send({ resolved: true });
    expect(resolved.status).toBe(200);
    expect(resolved.body.notes).toHaveLength(2);
    for (const note of resolved.body.notes) {
      expect(note).toMatchObject({ resolved: true, resolved_by: expect.objectContaining({ username: 'author' }) });
      expect(typeof note.resolved_at).toBe('string');
    }
    expect((await api('get', '/merge_requests/1')).body.blocking_discussions_resolved).toBe(true);

    const unresolved = await api('put', `/merge_requests/1/discussions/${thread.id}/notes/${reply.body.id}`, maintainer).send({
      resolved: false,
    });
    expect(unresolved.status).toBe(200);
    expect(unresolved.body).toMatchObject({ id: reply.body.id, resolved: false, resolved_by: null });
    expect((await api('get', '/merge_requests/1')).body.blocking_discussions_resolved).toBe(false);
  });

  it('refuses what GitLab refuses, in its words', async () => {
    const note = `/merge_requests/1/discussions/${thread.id}/notes/${thread.notes[0]?.id}`;
    expect((await api('put', note).send({})).body).toEqual({ error: 'body, resolved are missing, exactly one parameter must be provided' });
    expect((await api('put', note).send({ body: 'x', resolved: true })).body).toEqual({ error: 'body, resolved are mutually exclusive' });
    expect((await api('post', '/merge_requests/1/discussions').send({})).body).toEqual({ error: 'body is missing' });
    expect((await api('get', '/merge_requests/1/discussions/nope')).body).toEqual({ message: '404 Discussion Not Found' });
    expect((await api('post', '/merge_requests/1/discussions/nope/notes').send({ body: 'x' })).status).toBe(404);
    expect((await api('get', '/merge_requests/1/discussions', guest)).status).toBe(403);
    // A lone comment is not resolvable.
    const lone = await api('post', '/merge_requests/1/notes').send({ body: 'Lone' });
    expect(lone.body).toMatchObject({ type: null, resolvable: false });
    expect(lone.body).not.toHaveProperty('resolved');
    const listed = await api('get', '/merge_requests/1/discussions');
    const loneDiscussion = listed.body.find((discussion: { notes: Array<{ id: number }> }) => discussion.notes[0]?.id === lone.body.id);
    expect(loneDiscussion).toMatchObject({ individual_note: true });
    const resolving = await api('put', `/merge_requests/1/discussions/${loneDiscussion.id}/notes/${lone.body.id}`).send({ resolved: true });
    expect(resolving.status).toBe(400);
    expect(resolving.body).toEqual({ message: '400 Bad request - Note is not resolvable' });
    // Replying to it turns it into a thread.
    const reply = await api('post', `/merge_requests/1/discussions/${loneDiscussion.id}/notes`, maintainer).send({ body: 'Answer' });
    expect(reply.status).toBe(201);
    const converted = await api('get', `/merge_requests/1/discussions/${loneDiscussion.id}`);
    expect(converted.body).toMatchObject({
      individual_note: false,
      notes: [{ type: 'DiscussionNote', resolvable: true }, { body: 'Answer' }],
    });
  });

  it('lists discussions oldest first, paginated', async () => {
    const page = await api('get', '/merge_requests/1/discussions?per_page=1');
    expect(page.status).toBe(200);
    expect(page.headers['x-total']).toBe('2');
    expect(page.body.map((discussion: { id: string }) => discussion.id)).toEqual([thread.id]);
    expect(page.body[0].notes.map((note: { body: string }) => note.body)).toEqual(['Why shout?', 'Emphasis']);
  });

  it("places diff notes on a line of a diff version's changes, and refuses a position off the diff", async () => {
    const position = { ...diffRefs, position_type: 'text', old_path: 'README.md', new_path: 'README.md' };
    const added = await api('post', '/merge_requests/1/discussions').send({ body: 'Loud', position: { ...position, new_line: 2 } });
    expect(added.status).toBe(201);
    expect(added.body.notes[0]).toMatchObject({
      type: 'DiffNote',
      resolvable: true,
      position: { ...position, old_line: null, new_line: 2, line_range: null },
    });
    const unchanged = await api('post', '/merge_requests/1/discussions').send({
      body: 'Fine',
      position: { ...position, old_line: 1, new_line: 1 },
    });
    expect(unchanged.status).toBe(201);
    const offDiff = await api('post', '/merge_requests/1/discussions').send({ body: 'Where?', position: { ...position, new_line: 1 } });
    expect(offDiff.status).toBe(400);
    expect(offDiff.body).toEqual({ message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' });
    const otherVersion = await api('post', '/merge_requests/1/discussions').send({
      body: 'Where?',
      position: { ...position, head_sha: diffRefs.base_sha, new_line: 2 },
    });
    expect(otherVersion.status).toBe(400);
    const incomplete = await api('post', '/merge_requests/1/discussions').send({
      body: 'Where?',
      position: { ...diffRefs, position_type: 'text' },
    });
    expect(incomplete.body.message).toContain(':position=>["is incomplete"]');
  });
});

describe('issue notes and discussions', () => {
  it('adds, lists, edits and deletes notes on an issue, and threads that are not resolvable', async () => {
    const created = await api('post', '/issues/1/notes', guest).send({ body: 'Me too' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: null, noteable_type: 'Issue', noteable_iid: 1, system: false, resolvable: false });
    expect((await api('get', '/issues/1/notes', guest)).body.map((note: { id: number }) => note.id)).toEqual([created.body.id]);
    expect((await api('put', `/issues/1/notes/${created.body.id}`, guest).send({ body: 'Me three' })).body.body).toBe('Me three');
    expect((await api('put', `/issues/1/notes/${created.body.id}`, reporter).send({ body: 'No' })).status).toBe(403);
    // A note of the issue is not the merge request's with the same number.
    expect((await api('get', `/merge_requests/1/notes/${created.body.id}`)).status).toBe(404);
    expect((await api('get', '/issues/9/notes')).body).toEqual({ message: '404 Issue Not Found' });

    const thread = await api('post', '/issues/1/discussions', reporter).send({ body: 'Plan?' });
    expect(thread.status).toBe(201);
    expect(thread.body.notes[0]).toMatchObject({ type: 'DiscussionNote', noteable_type: 'Issue', resolvable: false });
    expect((await api('put', `/issues/1/discussions/${thread.body.id}`).send({ resolved: true })).status).toBe(404);
    expect((await api('get', '/issues/1/discussions')).body).toHaveLength(2);

    expect((await api('delete', `/issues/1/notes/${created.body.id}`, maintainer)).status).toBe(204);
    expect((await api('get', '/issues/1/notes')).body).toHaveLength(1);
  });
});

describe('commit comments and discussions', () => {
  it('comments on a commit, on a line it changed when path and line name one, and lists the comments oldest first', async () => {
    const plain = await api('post', `/repository/commits/${featureSha}/comments`).send({ note: 'Nice' });
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual({
      note: 'Nice',
      path: null,
      line: null,
      line_type: null,
      author: expect.objectContaining({ username: 'author' }),
      created_at: expect.any(String),
    });
    const onLine = await api('post', `/repository/commits/feature/comments`).send({
      note: 'Loud',
      path: 'README.md',
      line: 2,
      line_type: 'new',
    });
    expect(onLine.body).toMatchObject({ note: 'Loud', path: 'README.md', line: 2, line_type: 'new' });
    // A line the commit did not change: the comment lands on the commit.
    const offLine = await api('post', `/repository/commits/${featureSha}/comments`).send({ note: 'Here', path: 'README.md', line: 1 });
    expect(offLine.body).toMatchObject({ path: null, line: null, line_type: null });
    expect((await api('post', `/repository/commits/${featureSha}/comments`).send({ note: 'x', path: 'README.md' })).body).toEqual({
      error: 'line is missing',
    });
    expect((await api('post', '/repository/commits/nope/comments').send({ note: 'x' })).body).toEqual({ message: '404 Commit Not Found' });

    const listed = await api('get', `/repository/commits/${featureSha}/comments`, reporter);
    expect(listed.body.map((comment: { note: string }) => comment.note)).toEqual(['Nice', 'Loud', 'Here']);
    const discussions = await api('get', `/repository/commits/${featureSha}/discussions`, reporter);
    expect(discussions.body).toHaveLength(3);
    expect(discussions.body[1].notes[0]).toMatchObject({
      type: 'DiffNote',
      noteable_type: 'Commit',
      noteable_id: null,
      noteable_iid: null,
    });
    const reply = await api('post', `/repository/commits/${featureSha}/discussions/${discussions.body[0].id}/notes`).send({ body: 'x' });
    expect(reply.body).toEqual({ message: '400 Bad request - Discussion can not be replied to.' });
  });
});

describe('state changes', () => {
  it('writes each close, reopen and merge as a resource state event and as a system note, with the change', async () => {
    expect((await api('put', '/issues/1', reporter).send({ state_event: 'close' })).status).toBe(200);
    // Read at once: GitLab writes them in the change's transaction, nothing catches up later.
    const afterClose = await api('get', '/issues/1/resource_state_events', guest);
    expect(afterClose.body).toEqual([expect.objectContaining({ state: 'closed' })]);
    const systemNotes = (await api('get', '/issues/1/notes')).body.filter((note: { system: boolean }) => note.system);
    expect(systemNotes).toEqual([expect.objectContaining({ body: 'closed' })]);
    expect((await api('put', '/issues/1', reporter).send({ state_event: 'reopen' })).status).toBe(200);
    const events = await api('get', '/issues/1/resource_state_events', guest);
    expect(events.headers['x-total']).toBe('2');
    expect(events.body).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ username: 'viewer' }), resource_type: 'Issue', state: 'closed' }),
      expect.objectContaining({ resource_type: 'Issue', state: 'reopened', created_at: expect.any(String) }),
    ]);
    const one = await api('get', `/issues/1/resource_state_events/${events.body[0].id}`, guest);
    expect(one.body).toEqual(events.body[0]);
    expect((await api('get', `/merge_requests/1/resource_state_events/${events.body[0].id}`)).status).toBe(404);
    const notes = await api('get', '/issues/1/notes?sort=asc');
    expect(notes.body.filter((note: { system: boolean }) => note.system)).toEqual([
      expect.objectContaining({ body: 'closed', system: true, author: expect.objectContaining({ username: 'viewer' }) }),
      expect.objectContaining({ body: 'reopened', system: true }),
    ]);

    expect((await api('put', '/merge_requests/1', maintainer).send({ state_event: 'close' })).status).toBe(200);
    const closed = await api('get', '/merge_requests/1/resource_state_events');
    expect(closed.body).toEqual([expect.objectContaining({ resource_type: 'MergeRequest', state: 'closed' })]);
    const discussions = await api('get', '/merge_requests/1/discussions?per_page=100');
    const system = discussions.body.filter((discussion: { notes: Array<{ system: boolean }> }) => discussion.notes[0]?.system);
    expect(system).toEqual([
      expect.objectContaining({ individual_note: true, notes: [expect.objectContaining({ body: 'closed', type: null })] }),
    ]);
  });

  it('writes a merge as a merged state event and closes the issues it names, each with its system note', async () => {
    const branch = await api('post', '/repository/commits', maintainer).send({
      branch: 'fix',
      start_branch: 'main',
      commit_message: 'Add a fix',
      actions: [{ action: 'create', file_path: 'FIX.md', content: 'fixed\n' }],
    });
    expect(branch.status).toBe(201);
    const issue = await api('post', '/issues').send({ title: 'Broken' });
    const opened = await api('post', '/merge_requests', maintainer).send({
      source_branch: 'fix',
      target_branch: 'main',
      title: 'Fix it',
      description: `Closes #${issue.body.iid}`,
    });
    expect(opened.status).toBe(201);
    const merged = await api('put', `/merge_requests/${opened.body.iid}/merge`, maintainer);
    expect(merged.status).toBe(200);
    expect((await api('get', `/merge_requests/${opened.body.iid}/resource_state_events`)).body).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ username: 'boss' }), resource_type: 'MergeRequest', state: 'merged' }),
    ]);
    expect((await api('get', `/merge_requests/${opened.body.iid}/notes`)).body).toEqual([
      expect.objectContaining({ body: 'merged', system: true }),
    ]);
    expect((await api('get', `/issues/${issue.body.iid}/resource_state_events`)).body).toEqual([
      expect.objectContaining({ resource_type: 'Issue', state: 'closed' }),
    ]);
    // Newest first: the close, after the merge request's mention of the issue.
    expect((await api('get', `/issues/${issue.body.iid}/notes`)).body).toEqual([
      expect.objectContaining({ body: 'closed', system: true }),
      expect.objectContaining({ body: `mentioned in merge request !${opened.body.iid}`, system: true }),
    ]);
  });
});

describe('milestone changes', () => {
  it('writes each milestone set on or taken from an issue or a merge request as a resource milestone event', async () => {
    const milestone = await api('post', '/milestones', maintainer).send({ title: 'v1' });
    expect(milestone.status).toBe(201);
    expect((await api('put', '/issues/1', reporter).send({ milestone_id: milestone.body.id })).status).toBe(200);
    expect((await api('put', '/issues/1', reporter).send({ title: 'Talk about it more' })).status).toBe(200);
    expect((await api('put', '/issues/1', reporter).send({ milestone_id: null })).status).toBe(200);
    const events = (await api('get', '/issues/1/resource_milestone_events', guest)).body;
    expect(events).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ username: 'viewer' }),
        resource_type: 'Issue',
        milestone: expect.objectContaining({ id: milestone.body.id, title: 'v1' }),
        action: 'add',
        state: 'opened',
      }),
      expect.objectContaining({ milestone: expect.objectContaining({ id: milestone.body.id }), action: 'remove' }),
    ]);
    expect((await api('get', `/issues/1/resource_milestone_events/${events[1].id}`)).body).toEqual(events[1]);
    expect((await api('get', '/issues/1/resource_milestone_events/999999')).status).toBe(404);

    expect((await api('put', '/merge_requests/1', maintainer).send({ milestone_id: milestone.body.id })).status).toBe(200);
    const added = (await api('get', '/merge_requests/1/resource_milestone_events')).body;
    expect(added).toEqual([expect.objectContaining({ resource_type: 'MergeRequest', action: 'add', state: 'closed' })]);
  });
});

describe('label changes', () => {
  it('writes each label added to or removed from an issue or a merge request as a resource label event', async () => {
    expect((await api('put', '/issues/1', reporter).send({ labels: 'bug,ui' })).status).toBe(200);
    expect((await api('put', '/issues/1', reporter).send({ remove_labels: 'ui' })).status).toBe(200);
    const events = (await api('get', '/issues/1/resource_label_events', guest)).body;
    expect(events.map((event: { action: string; label: { name: string } }) => [event.action, event.label.name])).toEqual([
      ['add', 'bug'],
      ['add', 'ui'],
      ['remove', 'ui'],
    ]);
    expect(events[0]).toMatchObject({
      user: expect.objectContaining({ username: 'viewer' }),
      resource_type: 'Issue',
      label: expect.objectContaining({ id: expect.any(Number), color: expect.any(String) }),
    });
    expect((await api('get', `/issues/1/resource_label_events/${events[2].id}`)).body).toEqual(events[2]);
    expect((await api('get', `/merge_requests/1/resource_label_events/${events[2].id}`)).status).toBe(404);

    expect((await api('put', '/merge_requests/1', maintainer).send({ add_labels: 'bug' })).status).toBe(200);
    const added = (await api('get', '/merge_requests/1/resource_label_events')).body;
    expect(added).toEqual([
      expect.objectContaining({ resource_type: 'MergeRequest', action: 'add', label: expect.objectContaining({ name: 'bug' }) }),
    ]);
  });
});

describe('title and description changes', () => {
  it("writes GitLab's system notes for a changed title (an inline diff) and a changed description", async () => {
    const issue = await api('post', '/issues').send({ title: 'Fix the bug', description: 'It crashes' });
    expect(issue.status).toBe(201);
    const iid = issue.body.iid;
    expect((await api('put', `/issues/${iid}`).send({ title: 'Fix the crash', description: 'It crashes on start' })).status).toBe(200);
    expect((await api('put', `/issues/${iid}`).send({ title: 'Fix the crash', description: 'It crashes on start' })).status).toBe(200);
    const systemNotes = async (url: string) =>
      (await api('get', `${url}/notes?sort=asc`)).body
        .filter((note: { system: boolean; body: string }) => note.system && note.body.startsWith('changed'))
        .map((note: { body: string }) => note.body);
    expect(await systemNotes(`/issues/${iid}`)).toEqual([
      'changed title from **Fix the {-bug-}** to **Fix the {+crash+}**',
      'changed the description',
    ]);

    expect((await api('put', '/merge_requests/1', maintainer).send({ title: 'Shout louder' })).status).toBe(200);
    expect(await systemNotes('/merge_requests/1')).toEqual(['changed title from **Shout** to **Shout{+ louder+}**']);
  });
});
