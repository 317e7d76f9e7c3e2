/**
 * Cross-reference notes against real PostgreSQL, Kafka and repositories on disk (identity's answers
 * come from a fake): a merge request, an issue or a comment that mentions an issue or a merge
 * request of its own project or another writes "mentioned in ..." on it, in its own transaction,
 * once per mentioner, only where its author may read; readers see such a note only when they may
 * read its mentioner, and an issue's related merge requests are found through them.
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

const alice = userCaller(71, 'alice');
const carol = userCaller(73, 'carol');
const dave = userCaller(74, 'dave');
const APP = 41;
const LIB = 42;
const SECRET = 43;
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: APP, path: 'acme/app', namespaceIds: [5], levels: { 71: 30, 73: 30, 74: 10 } })
  .add({ resource: 'project', id: LIB, path: 'acme/lib', namespaceIds: [5], levels: { 71: 30, 73: 30, 74: 10 } })
  .add({ resource: 'project', id: SECRET, path: 'other/secret', namespaceIds: [6], levels: { 71: 30 } });
const users = new FixedUserDirectory([
  { id: 71, username: 'alice' },
  { id: 73, username: 'carol' },
  { id: 74, username: 'dave' },
]);
let harness: ServiceHarness<RunningService>;
let dataDir: string;

const api = (method: 'get' | 'post' | 'put', projectId: number, url: string, caller: AuthenticatedCaller = alice) =>
  harness.api[method](`/api/v4/projects/${projectId}${url}`).set(harness.as(caller));

/** The bodies of an issue's system notes, as the caller reads them. */
async function systemNotes(projectId: number, issueIid: number, caller: AuthenticatedCaller = alice): Promise<string[]> {
  const listed = await api('get', projectId, `/issues/${issueIid}/notes?sort=asc`, caller);
  expect(listed.status).toBe(200);
  return (listed.body as Array<{ body: string; system: boolean }>).filter((note) => note.system).map((note) => note.body);
}

/** Opens a merge request of a branch with one commit, in a project whose repository starts here. */
async function openMergeRequest(projectId: number, options: { title: string; description: string }): Promise<number> {
  expect(
    (await api('post', projectId, '/repository/files/README.md').send({ branch: 'main', content: 'one\n', commit_message: 'Add README' }))
      .status,
  ).toBe(201);
  const commit = await api('post', projectId, '/repository/commits').send({
    branch: 'feature',
    start_branch: 'main',
    commit_message: 'Change',
    actions: [{ action: 'update', file_path: 'README.md', content: 'two\n' }],
  });
  expect(commit.status).toBe(201);
  const opened = await api('post', projectId, '/merge_requests').send({ source_branch: 'feature', target_branch: 'main', ...options });
  expect(opened.status).toBe(201);
  return opened.body.iid;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-cross-references-'));
  harness = await startServiceHarness({
    label: 'review_cross_references',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users })),
  });
  for (const title of ['Crash on start', 'Slow start']) expect((await api('post', APP, '/issues').send({ title })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('cross references', () => {
  it("notes a merge request of another project that mentions an issue on the issue, and lists it among the issue's related merge requests", async () => {
    const iid = await openMergeRequest(LIB, { title: 'Guard the start', description: 'Fixes acme/app#1' });
    // The same namespace: the mentioner's project by its own path.
    expect(await systemNotes(APP, 1)).toEqual([`mentioned in merge request lib!${iid}`]);

    // Mentioned again in a new title: one note per mentioner.
    expect((await api('put', LIB, `/merge_requests/${iid}`).send({ title: 'Guard the start (acme/app#1)' })).status).toBe(200);
    expect(await systemNotes(APP, 1)).toEqual([`mentioned in merge request lib!${iid}`]);

    const related = await api('get', APP, '/issues/1/related_merge_requests', carol);
    expect(related.status).toBe(200);
    expect(related.body).toEqual([
      expect.objectContaining({ project_id: LIB, iid, references: expect.objectContaining({ relative: `acme/lib!${iid}` }) }),
    ]);
  });

  it('notes the mentions of comments and edited descriptions, of issues of the same project by their short reference', async () => {
    expect((await api('post', APP, '/issues/2/notes').send({ body: 'Maybe the same as #1' })).status).toBe(201);
    expect((await api('post', APP, '/issues/2/notes').send({ body: 'Surely #1' })).status).toBe(201);
    expect(await systemNotes(APP, 1)).toEqual([expect.stringContaining('mentioned in merge request'), 'mentioned in issue #2']);

    expect((await api('put', APP, '/issues/1').send({ description: 'See http://localhost/acme/app/-/issues/2' })).status).toBe(200);
    expect(await systemNotes(APP, 2)).toEqual(['mentioned in issue #1']);
  });

  it('hides a note whose mentioner the reader may not read, and does not list its merge request', async () => {
    const issue = await api('post', SECRET, '/issues').send({ title: 'Secret plan', description: 'Builds on acme/app#1' });
    expect(issue.status).toBe(201);
    const iid = await openMergeRequest(SECRET, { title: 'Secret work', description: 'For acme/app#1' });
    const fromSecret = ['mentioned in issue other/secret#1', `mentioned in merge request other/secret!${iid}`];
    const aliceReads = await systemNotes(APP, 1);
    expect(aliceReads).toEqual(expect.arrayContaining(fromSecret));
    expect(await systemNotes(APP, 1, carol)).toEqual(aliceReads.filter((body) => !fromSecret.includes(body)));

    const discussions = await api('get', APP, '/issues/1/discussions', carol);
    expect(discussions.status).toBe(200);
    const bodies = (discussions.body as Array<{ notes: Array<{ body: string }> }>).flatMap((discussion) =>
      discussion.notes.map((note) => note.body),
    );
    expect(bodies.some((body) => body.includes('other/secret'))).toBe(false);

    const listed = await api('get', APP, '/issues/1/notes', alice);
    const hidden = (listed.body as Array<{ id: number; body: string }>).find((note) => note.body === fromSecret[0]);
    expect((await api('get', APP, `/issues/1/notes/${hidden?.id}`, carol)).status).toBe(404);
    expect((await api('get', APP, `/issues/1/notes/${hidden?.id}`, alice)).status).toBe(200);

    const relatedToAlice = await api('get', APP, '/issues/1/related_merge_requests');
    expect((relatedToAlice.body as Array<{ project_id: number }>).map((mergeRequest) => mergeRequest.project_id)).toEqual([LIB, SECRET]);
    const relatedToCarol = await api('get', APP, '/issues/1/related_merge_requests', carol);
    expect((relatedToCarol.body as Array<{ project_id: number }>).map((mergeRequest) => mergeRequest.project_id)).toEqual([LIB]);
  });

  it('notes nothing on what the author may not read: a project they do not see, a confidential issue', async () => {
    expect((await api('post', APP, '/issues', carol).send({ title: 'Like other/secret#1 and other/secret#9' })).status).toBe(201);
    expect(await systemNotes(SECRET, 1)).toEqual([]);

    const confidential = await api('post', APP, '/issues').send({ title: 'Hush', confidential: true });
    expect(confidential.status).toBe(201);
    expect((await api('post', LIB, '/issues', dave).send({ title: `About acme/app#${confidential.body.iid}` })).status).toBe(201);
    expect(await systemNotes(APP, confidential.body.iid)).toEqual([]);

    // Numbers past any iid name nothing.
    expect((await api('post', APP, '/issues/2/notes').send({ body: '#99999999999 and !99999999999' })).status).toBe(201);
    expect((await api('get', APP, '/issues/2/related_merge_requests')).status).toBe(200);
  });
});
