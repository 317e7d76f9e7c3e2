/**
 * Merge requests and delivery's external pipelines against real PostgreSQL, Kafka and repositories
 * on disk (identity's answers come from a fake, delivery's events are published here): a merge
 * request's pipelines listed as GitLab lists them, and merges set to happen when the pipeline
 * succeeds aborted by closing the merge request or refused when the queued merge runs, each with
 * GitLab's system note.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthenticatedCaller } from '@platform/auth';
import { deliveryEvents } from '@platform/delivery-client';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import {
  countHydrations,
  gitlabSchemaErrors,
  publishEvents,
  startServiceHarness,
  userCaller,
  waitFor,
  type ServiceHarness,
} from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';

const author = userCaller(71, 'author');
const maintainer = userCaller(72, 'boss');
const reporter = userCaller(73, 'viewer');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 41, path: 'acme/gated', levels: { 71: 30, 72: 40, 73: 20 } });
const users = new FixedUserDirectory([
  { id: 71, username: 'author' },
  { id: 72, username: 'boss' },
  { id: 73, username: 'viewer' },
]);
const topicPrefix = `review-test-${randomUUID()}.`;
let harness: ServiceHarness<RunningService>;
let dataDir: string;

const api = (method: 'get' | 'post' | 'put', url: string, caller: AuthenticatedCaller = author) =>
  harness.api[method](`/api/v4/projects/41${url}`).set(harness.as(caller));

/** A commit on `branch` (from main when it is new) creating or updating `file`; answers its sha. */
async function commit(branch: string, file: string, content: string, action: 'create' | 'update' = 'create'): Promise<string> {
  const branches = await api('get', '/repository/branches');
  const exists = branches.body.some((listed: { name: string }) => listed.name === branch);
  const created = await api('post', '/repository/commits', maintainer).send({
    branch,
    ...(exists ? {} : { start_branch: 'main' }),
    commit_message: `Write ${file} on ${branch}`,
    actions: [{ action, file_path: file, content }],
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function open(branch: string): Promise<number> {
  const opened = await api('post', '/merge_requests').send({ source_branch: branch, target_branch: 'main', title: `Ship ${branch}` });
  expect(opened.status).toBe(201);
  return opened.body.iid;
}

let pipelineIds = 9000;
/** Delivery telling of an external pipeline of `sha` on `ref` (each version newer than the last told). */
async function pipeline(options: { id?: number; sha: string; ref: string; status: string; version?: number }): Promise<number> {
  const id = options.id ?? (pipelineIds += 1);
  const now = new Date().toISOString();
  const event = options.version === undefined || options.version === 1 ? deliveryEvents.pipelineCreated : deliveryEvents.pipelineUpdated;
  await publishEvents({
    topicPrefix,
    events: [
      event.event({
        aggregateId: 41,
        data: {
          projectId: 41,
          projectPath: 'acme/gated',
          pipelineId: id,
          iid: id - 9000,
          sha: options.sha,
          ref: options.ref,
          tag: false,
          beforeSha: '0'.repeat(40),
          source: 'external',
          status: options.status,
          previousStatus: '',
          userId: 72,
          userUsername: 'boss',
          userName: 'Boss',
          coverage: '',
          createdAt: now,
          updatedAt: now,
          startedAt: '',
          finishedAt: '',
          webUrl: `http://localhost/acme/gated/-/pipelines/${id}`,
          version: options.version ?? 1,
        },
      }),
    ],
  });
  return id;
}

/** What the tests read of a merge request's single view. */
interface MergeRequestBody {
  state: string;
  sha: string;
  merge_when_pipeline_succeeds: boolean;
  head_pipeline: { id: number; status: string } | null;
}

/** The merge request once `matches` holds of its single view (delivery's events travel through Kafka). */
const eventually = (iid: number, what: string, matches: (body: MergeRequestBody) => boolean) =>
  waitFor(
    async () => {
      const found = await api('get', `/merge_requests/${iid}`, reporter);
      return matches(found.body) ? found.body : undefined;
    },
    { what, timeoutMs: 30_000 },
  );

const systemNotes = async (iid: number) => {
  const notes = await api('get', `/merge_requests/${iid}/notes?sort=asc&order_by=created_at`, reporter);
  return (notes.body as Array<{ body: string; system: boolean; author: { username: string } }>)
    .filter((note) => note.system && note.body.includes('automatic merge'))
    .map((note) => `${note.author.username}: ${note.body}`);
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-auto-merge-'));
  harness = await startServiceHarness({
    label: 'review_auto_merge',
    env: { KAFKA_TOPIC_PREFIX: topicPrefix, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users })),
  });
  const readme = await api('post', '/repository/files/README.md', maintainer).send({
    branch: 'main',
    content: 'one\ntwo\n',
    commit_message: 'Add README',
  });
  expect(readme.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("a merge request's pipelines", () => {
  it("lists the source branch's pipelines at the heads of its diff versions, newest first, as GitLab's PipelineBasic", async () => {
    const first = await commit('listed', 'listed.txt', 'first\n');
    const iid = await open('listed');
    const atFirst = await pipeline({ sha: first, ref: 'listed', status: 'success' });
    await pipeline({ sha: first, ref: 'main', status: 'success' });
    await pipeline({ sha: 'c'.repeat(40), ref: 'listed', status: 'failed' });
    const second = await commit('listed', 'more.txt', 'second\n');
    await eventually(iid, 'the second diff version', (body) => body.sha === second);
    const atSecond = await pipeline({ sha: second, ref: 'listed', status: 'running' });
    await eventually(iid, 'the new head pipeline', (body) => body.head_pipeline?.id === atSecond);

    const hydrations = await countHydrations(async () => {
      const listed = await api('get', `/merge_requests/${iid}/pipelines`, reporter);
      expect(listed.status).toBe(200);
      expect(listed.headers['x-total']).toBe('2');
      expect(listed.body.map((found: { id: number }) => found.id)).toEqual([atSecond, atFirst]);
      for (const found of listed.body) expect(gitlabSchemaErrors('pipeline/basic.json', found)).toEqual([]);
      expect(listed.body[0]).toEqual({
        id: atSecond,
        iid: atSecond - 9000,
        project_id: 41,
        sha: second,
        ref: 'listed',
        status: 'running',
        source: 'external',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        web_url: `http://localhost/acme/gated/-/pipelines/${atSecond}`,
      });
      const paged = await api('get', `/merge_requests/${iid}/pipelines?per_page=1&page=2`, reporter);
      expect(paged.body.map((found: { id: number }) => found.id)).toEqual([atFirst]);
      expect(paged.headers['x-total-pages']).toBe('2');
    });
    expect(hydrations).toBe(0);
    expect(await api('get', '/merge_requests/999/pipelines', reporter)).toMatchObject({
      status: 404,
      body: { message: '404 Merge Request Not Found' },
    });
  });
});

describe('a merge set to happen when the pipeline succeeds', () => {
  it('is aborted by closing the merge request, and the pipeline succeeding after it was reopened merges nothing', async () => {
    const head = await commit('closing', 'closing.txt', 'closing\n');
    const iid = await open('closing');
    const running = await pipeline({ sha: head, ref: 'closing', status: 'running' });
    await eventually(iid, 'the running pipeline', (body) => body.head_pipeline?.id === running);
    const armed = await api('put', `/merge_requests/${iid}/merge`, maintainer).send({ merge_when_pipeline_succeeds: true });
    expect(armed.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });

    const closed = await api('put', `/merge_requests/${iid}`).send({ state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', merge_when_pipeline_succeeds: false });
    expect((await api('put', `/merge_requests/${iid}`).send({ state_event: 'reopen' })).body.state).toBe('opened');
    await pipeline({ id: running, sha: head, ref: 'closing', status: 'success', version: 2 });
    const passed = await eventually(iid, 'the pipeline passing', (body) => body.head_pipeline?.status === 'success');
    // The merge is queued in the transaction that records the pipeline: none was.
    expect(passed).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false });
    expect(await harness.sql("select id from background_jobs where kind = 'review.auto_merge'")).toEqual([]);
    expect(await systemNotes(iid)).toEqual([
      `boss: enabled an automatic merge when the pipeline for ${head} succeeds`,
      'author: aborted the automatic merge because merge request was closed',
    ]);
  });

  it("is unset when the queued merge is refused (a conflict with the target), with GitLab's merge error as the note's reason", async () => {
    const head = await commit('conflicting', 'README.md', 'one\nmine\n', 'update');
    const iid = await open('conflicting');
    const running = await pipeline({ sha: head, ref: 'conflicting', status: 'running' });
    await eventually(iid, 'the running pipeline', (body) => body.head_pipeline?.id === running);
    expect((await api('put', `/merge_requests/${iid}/merge`, maintainer).send({ merge_when_pipeline_succeeds: true })).status).toBe(200);
    await commit('main', 'README.md', 'one\ntheirs\n', 'update');

    await pipeline({ id: running, sha: head, ref: 'conflicting', status: 'success', version: 2 });
    const refused = await eventually(iid, 'the refused merge to unset it', (body) => body.merge_when_pipeline_succeeds === false);
    expect(refused).toMatchObject({ state: 'opened', head_pipeline: { status: 'success' } });
    expect(await systemNotes(iid)).toEqual([
      `boss: enabled an automatic merge when the pipeline for ${head} succeeds`,
      'boss: aborted the automatic merge because Merge request is not mergeable',
    ]);
  });
});
