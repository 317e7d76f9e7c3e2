/**
 * The discussion around merge requests through the real gateway: notes (and their activity
 * events in audit), subscriptions, on merge requests opened on branches the git CLI pushed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
import {
  addProjectMember,
  createUserWithToken,
  createWorkDir,
  E2E_ROOT_TOKEN,
  type E2eUser,
  removeWorkDir,
  startTestPlatform,
} from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

let git: Git;

/** A project of root's with `main` and one branch per name pushed with git, and these members. */
async function projectWithBranches(options: {
  name: string;
  visibility: 'private' | 'public';
  members: Array<[E2eUser, number]>;
  branches: string[];
}): Promise<number> {
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: options.name, visibility: options.visibility });
  expect(project.status).toBe(201);
  for (const [user, level] of options.members)
    await addProjectMember(gateway, { projectId: project.body.id, userId: user.id, accessLevel: level });
  const clone = path.join(work, options.name);
  expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, `root/${options.name}`), options.name])).code).toBe(0);
  writeFileSync(path.join(clone, 'README.md'), 'hello\n');
  expect((await git(['add', '.'], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', 'Initial commit'], clone)).code).toBe(0);
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
  for (const branch of options.branches) {
    expect((await git(['checkout', '-q', '-B', branch, 'main'], clone)).code).toBe(0);
    writeFileSync(path.join(clone, `${branch}.txt`), `${branch}\n`);
    expect((await git(['add', '.'], clone)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', `Add ${branch}`], clone)).code).toBe(0);
    expect((await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], clone)).code).toBe(0);
  }
  return project.body.id;
}

let author: E2eUser;
let maintainer: E2eUser;
let reporter: E2eUser;
let guest: E2eUser;
let outsider: E2eUser;
let projectId: number;
let publicProjectId: number;
const mr = (suffix = '', id = projectId, iid = 1) => `/api/v4/projects/${id}/merge_requests/${iid}${suffix}`;

beforeAll(async () => {
  work = createWorkDir('discussion');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review', 'audit'] });
  gateway = request(platform.url);
  author = await createUserWithToken(gateway, 'disc-author');
  maintainer = await createUserWithToken(gateway, 'disc-maintainer');
  reporter = await createUserWithToken(gateway, 'disc-reporter');
  guest = await createUserWithToken(gateway, 'disc-guest');
  outsider = await createUserWithToken(gateway, 'disc-outsider');
  projectId = await projectWithBranches({
    name: 'talk',
    visibility: 'private',
    members: [
      [author, 30],
      [maintainer, 40],
      [reporter, 20],
      [guest, 10],
    ],
    branches: ['feature'],
  });
  const opened = await gateway
    .post(`/api/v4/projects/${projectId}/merge_requests`)
    .set(author.headers)
    .send({ source_branch: 'feature', target_branch: 'main', title: 'Add a feature', assignee_ids: [maintainer.id] });
  expect(opened.status).toBe(201);
  publicProjectId = await projectWithBranches({ name: 'open-talk', visibility: 'public', members: [[author, 30]], branches: ['idea'] });
  const openedPublic = await gateway
    .post(`/api/v4/projects/${publicProjectId}/merge_requests`)
    .set(author.headers)
    .send({ source_branch: 'idea', target_branch: 'main', title: 'An idea' });
  expect(openedPublic.status).toBe(201);
}, 300_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('notes on a merge request', () => {
  let first: { id: number };
  let second: { id: number };

  it("refuses a note without a body, a blank one, and anybody who may not read the merge request, in GitLab's words", async () => {
    const missing = await gateway.post(mr('/notes')).set(author.headers).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'body is missing' });
    const blank = await gateway.post(mr('/notes')).set(author.headers).send({ body: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain("can't be blank");
    // Guests do not see a private project's merge requests; strangers do not see the project.
    expect((await gateway.post(mr('/notes')).set(guest.headers).send({ body: 'hi' })).status).toBe(403);
    expect((await gateway.post(mr('/notes')).set(outsider.headers).send({ body: 'hi' })).status).toBe(404);
    expect(
      (
        await gateway
          .post(mr('/notes', projectId, 99))
          .set(author.headers)
          .send({ body: 'hi' })
      ).status,
    ).toBe(404);
    expect((await gateway.post(mr('/notes')).send({ body: 'hi' })).status).toBe(401);
    expect((await gateway.get(mr('/notes')).set(author.headers)).body).toEqual([]);
  });

  it('adds notes, counted in user_notes_count, listed newest first or as asked', async () => {
    const created = await gateway.post(mr('/notes')).set(author.headers).send({ body: 'First thoughts' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      body: 'First thoughts',
      system: false,
      noteable_type: 'MergeRequest',
      noteable_iid: 1,
      project_id: projectId,
      author: expect.objectContaining({ id: author.id, username: 'disc-author' }),
      attachment: null,
    });
    first = created.body;
    second = (await gateway.post(mr('/notes')).set(reporter.headers).send({ body: 'Second thoughts' })).body;

    const newestFirst = await gateway.get(mr('/notes')).set(maintainer.headers);
    expect(newestFirst.status).toBe(200);
    expect(newestFirst.headers['x-total']).toBe('2');
    expect(newestFirst.body.map((note: { id: number }) => note.id)).toEqual([second.id, first.id]);
    const oldestFirst = await gateway.get(mr('/notes')).query({ sort: 'asc', order_by: 'updated_at' }).set(maintainer.headers);
    expect(oldestFirst.body.map((note: { id: number }) => note.id)).toEqual([first.id, second.id]);
    expect((await gateway.get(mr('/notes')).query({ order_by: 'title' }).set(maintainer.headers)).status).toBe(400);

    const shown = await gateway.get(mr()).set(reporter.headers);
    expect(shown.body.user_notes_count).toBe(2);
    expect(gitlabSchemaErrors('merge_request.json', shown.body)).toEqual([]);
    const listed = await gateway.get(`/api/v4/projects/${projectId}/merge_requests`).set(reporter.headers);
    expect(listed.body[0].user_notes_count).toBe(2);
  });

  it('shows one note, 404 for an unknown one', async () => {
    const shown = await gateway.get(mr(`/notes/${first.id}`)).set(reporter.headers);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: first.id, body: 'First thoughts' });
    const unknown = await gateway.get(mr('/notes/999999')).set(reporter.headers);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Note Not Found' });
    // A note of another merge request is not this one's.
    expect((await gateway.get(mr(`/notes/${first.id}`, publicProjectId)).set(author.headers)).status).toBe(404);
  });

  it('lets only the author edit a note, and the author or a maintainer delete it', async () => {
    expect(
      (
        await gateway
          .put(mr(`/notes/${first.id}`))
          .set(maintainer.headers)
          .send({ body: 'Hijacked' })
      ).status,
    ).toBe(403);
    expect(
      (
        await gateway
          .put(mr(`/notes/${first.id}`))
          .set(author.headers)
          .send({})
      ).body,
    ).toEqual({ error: 'body is missing' });
    const edited = await gateway
      .put(mr(`/notes/${first.id}`))
      .set(author.headers)
      .send({ body: 'Better thoughts' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: first.id, body: 'Better thoughts' });
    expect((await gateway.delete(mr(`/notes/${second.id}`)).set(author.headers)).status).toBe(403);
    expect((await gateway.delete(mr(`/notes/${second.id}`)).set(maintainer.headers)).status).toBe(204);
    expect((await gateway.get(mr(`/notes/${second.id}`)).set(maintainer.headers)).status).toBe(404);
    expect((await gateway.get(mr()).set(reporter.headers)).body.user_notes_count).toBe(1);
  });

  it('closes a locked discussion to non-members of a public project, not to members', async () => {
    expect((await gateway.post(mr('/notes', publicProjectId)).set(outsider.headers).send({ body: 'Drive-by' })).status).toBe(201);
    const locked = await gateway.put(mr('', publicProjectId)).set(asRoot).send({ discussion_locked: true });
    expect(locked.body.discussion_locked).toBe(true);
    expect((await gateway.post(mr('/notes', publicProjectId)).set(outsider.headers).send({ body: 'Again' })).status).toBe(403);
    expect((await gateway.post(mr('/notes', publicProjectId)).set(author.headers).send({ body: 'Member' })).status).toBe(201);
  });

  it('records the comment as activity: commented on a Note, with the note', async () => {
    const events = await waitFor(
      async () => {
        const found = await gateway.get(`/api/v4/projects/${projectId}/events`).query({ target_type: 'note' }).set(maintainer.headers);
        return found.body.length >= 2 ? found.body : undefined;
      },
      { timeoutMs: 60_000, what: 'comment activity' },
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        action_name: 'commented on',
        target_type: 'Note',
        target_id: first.id,
        target_title: 'Add a feature',
        author_id: author.id,
        note: expect.objectContaining({
          id: first.id,
          body: 'First thoughts',
          noteable_type: 'MergeRequest',
          noteable_iid: 1,
          system: false,
          attachment: null,
          author: expect.objectContaining({ id: author.id }),
        }),
      }),
    );
    const commented = await gateway.get(`/api/v4/users/${reporter.id}/events`).query({ action: 'commented' }).set(reporter.headers);
    expect(commented.body).toEqual([expect.objectContaining({ action_name: 'commented on', target_id: second.id })]);
  });
});

describe('threads that hold a merge back', () => {
  it('refuses the merge with 405 while a thread is open, when the project asks for every thread resolved', async () => {
    const threaded = await projectWithBranches({
      name: 'threaded',
      visibility: 'private',
      members: [[maintainer, 40]],
      branches: ['topic'],
    });
    const settings = await gateway
      .put(`/api/v4/projects/${threaded}`)
      .set(asRoot)
      .send({ only_allow_merge_if_all_discussions_are_resolved: true });
    expect(settings.body.only_allow_merge_if_all_discussions_are_resolved).toBe(true);
    const opened = await gateway
      .post(`/api/v4/projects/${threaded}/merge_requests`)
      .set(maintainer.headers)
      .send({ source_branch: 'topic', target_branch: 'main', title: 'A topic' });
    expect(opened.status).toBe(201);
    const thread = await gateway.post(mr('/discussions', threaded)).set(maintainer.headers).send({ body: 'Please reconsider' });
    expect(thread.status).toBe(201);
    expect((await gateway.get(mr('', threaded)).set(maintainer.headers)).body.blocking_discussions_resolved).toBe(false);

    const refused = await gateway.put(mr('/merge', threaded)).set(maintainer.headers);
    expect(refused).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
    const resolved = await gateway
      .put(mr(`/discussions/${thread.body.id}`, threaded))
      .set(maintainer.headers)
      .send({ resolved: true });
    expect(resolved.status).toBe(200);
    const merged = await gateway.put(mr('/merge', threaded)).set(maintainer.headers);
    expect(merged).toMatchObject({ status: 200, body: { state: 'merged' } });
  });
});

describe('subscriptions', () => {
  it('subscribes the author and assignees, and answers 304 when nothing changes', async () => {
    expect((await gateway.get(mr()).set(author.headers)).body.subscribed).toBe(true);
    expect((await gateway.get(mr()).set(maintainer.headers)).body.subscribed).toBe(true);
    expect((await gateway.get(mr()).set(reporter.headers)).body.subscribed).toBe(false);
    expect((await gateway.post(mr('/subscribe')).set(author.headers)).status).toBe(304);
    const unsubscribed = await gateway.post(mr('/unsubscribe')).set(author.headers);
    expect(unsubscribed.status).toBe(201);
    expect(gitlabSchemaErrors('merge_request.json', unsubscribed.body)).toEqual([]);
    expect(unsubscribed.body).toMatchObject({ iid: 1, subscribed: false });
    expect((await gateway.post(mr('/unsubscribe')).set(author.headers)).status).toBe(304);
    expect((await gateway.get(mr()).set(author.headers)).body.subscribed).toBe(false);
  });

  it('lets anybody who reads the merge request subscribe, and nobody else', async () => {
    const subscribed = await gateway.post(mr('/subscribe')).set(reporter.headers);
    expect(subscribed.status).toBe(201);
    expect(subscribed.body.subscribed).toBe(true);
    expect((await gateway.post(mr('/subscribe')).set(reporter.headers)).status).toBe(304);
    expect((await gateway.post(mr('/subscribe')).set(guest.headers)).status).toBe(403);
    expect((await gateway.post(mr('/subscribe')).set(outsider.headers)).status).toBe(404);
    expect((await gateway.post(mr('/subscribe', projectId, 42)).set(reporter.headers)).status).toBe(404);
    expect((await gateway.post(`/api/v4/projects/${projectId}/merge_requests/abc/subscribe`).set(reporter.headers)).status).toBe(400);
  });
});

describe('award emoji', () => {
  let thumbsUp: { id: number };

  it('awards emoji by GitLab name, counted as upvotes and downvotes', async () => {
    const missing = await gateway.post(mr('/award_emoji')).set(reporter.headers).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const unknown = await gateway.post(mr('/award_emoji')).set(reporter.headers).send({ name: 'thumbs_sideways' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Award Emoji Name is not a valid emoji name Not Found' });

    const awarded = await gateway.post(mr('/award_emoji')).set(reporter.headers).send({ name: '+1' });
    expect(awarded.status).toBe(201);
    expect(awarded.body).toMatchObject({
      name: 'thumbsup',
      awardable_type: 'MergeRequest',
      user: expect.objectContaining({ id: reporter.id }),
    });
    thumbsUp = awarded.body;
    const again = await gateway.post(mr('/award_emoji')).set(reporter.headers).send({ name: 'thumbsup' });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Award Emoji Name has already been taken Not Found' });
    expect((await gateway.post(mr('/award_emoji')).set(maintainer.headers).send({ name: 'thumbsup' })).status).toBe(201);
    expect((await gateway.post(mr('/award_emoji')).set(author.headers).send({ name: 'thumbsdown' })).status).toBe(201);
    expect((await gateway.post(mr('/award_emoji')).set(author.headers).send({ name: 'tada' })).status).toBe(201);
    expect((await gateway.post(mr('/award_emoji')).set(guest.headers).send({ name: 'tada' })).status).toBe(403);

    const shown = await gateway.get(mr()).set(reporter.headers);
    expect(shown.body).toMatchObject({ upvotes: 2, downvotes: 1 });
    const listed = await gateway.get(mr('/award_emoji')).set(reporter.headers);
    expect(listed.headers['x-total']).toBe('4');
    expect(listed.body.map((award: { name: string }) => award.name)).toEqual(['thumbsup', 'thumbsup', 'thumbsdown', 'tada']);
    expect((await gateway.get(mr(`/award_emoji/${thumbsUp.id}`)).set(author.headers)).body).toMatchObject({ id: thumbsUp.id });
    expect((await gateway.get(mr('/award_emoji/999999')).set(author.headers)).status).toBe(404);
  });

  it("filters merge requests by the caller's reaction: an emoji, Any, None, and not", async () => {
    const iidsOf = async (query: Record<string, string>, headers: Record<string, string> = author.headers) =>
      (await gateway.get(`/api/v4/projects/${projectId}/merge_requests`).query(query).set(headers)).body.map(
        (item: { iid: number }) => item.iid,
      );
    expect(await iidsOf({ my_reaction_emoji: 'tada' })).toEqual([1]);
    expect(await iidsOf({ my_reaction_emoji: 'Any' })).toEqual([1]);
    expect(await iidsOf({ my_reaction_emoji: 'None' })).toEqual([]);
    // Root reacted to nothing.
    expect(await iidsOf({ my_reaction_emoji: 'None' }, asRoot)).toEqual([1]);
    expect(await iidsOf({ my_reaction_emoji: 'Any' }, asRoot)).toEqual([]);
    expect(await iidsOf({ my_reaction_emoji: 'rocket' })).toEqual([]);
    expect(await iidsOf({ 'not[my_reaction_emoji]': 'tada' })).not.toContain(1);
    const global = await gateway.get('/api/v4/merge_requests').query({ scope: 'all', my_reaction_emoji: 'thumbsup' }).set(reporter.headers);
    expect(global.body.map((item: { iid: number; project_id: number }) => [item.project_id, item.iid])).toEqual([[projectId, 1]]);
  });

  it('lets only the user who reacted take a reaction back', async () => {
    const taken = await gateway.delete(mr(`/award_emoji/${thumbsUp.id}`)).set(author.headers);
    expect(taken.status).toBe(401);
    expect((await gateway.delete(mr(`/award_emoji/${thumbsUp.id}`)).set(reporter.headers)).status).toBe(204);
    expect((await gateway.get(mr()).set(reporter.headers)).body).toMatchObject({ upvotes: 1, downvotes: 1 });
  });

  it('closes a locked discussion to reactions of non-members', async () => {
    const refused = await gateway.post(mr('/award_emoji', publicProjectId)).set(outsider.headers).send({ name: 'tada' });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ message: '404 Award Emoji Not Found' });
    expect((await gateway.post(mr('/award_emoji', publicProjectId)).set(author.headers).send({ name: 'tada' })).status).toBe(201);
  });
});

describe('time tracking', () => {
  it("sets and resets the estimate in GitLab's human durations (a month 4 weeks, a week 5 days, a day 8 hours)", async () => {
    const estimated = await gateway.post(mr('/time_estimate')).set(author.headers).send({ duration: '1mo 2w 3d 4h 30m' });
    expect(estimated.status).toBe(200);
    expect(estimated.body).toEqual({
      time_estimate: ((4 * 5 + 2 * 5 + 3) * 8 + 4) * 3600 + 30 * 60,
      total_time_spent: 0,
      human_time_estimate: '1mo 2w 3d 4h 30m',
      human_total_time_spent: null,
    });
    expect((await gateway.get(mr()).set(reporter.headers)).body.time_stats).toEqual(estimated.body);
    const invalid = await gateway.post(mr('/time_estimate')).set(author.headers).send({ duration: 'soon' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { time_estimate: ['has an invalid format'] } });
    expect((await gateway.post(mr('/time_estimate')).set(author.headers).send({})).body).toEqual({ error: 'duration is missing' });
    expect((await gateway.post(mr('/time_estimate')).set(reporter.headers).send({ duration: '1h' })).status).toBe(403);
    const reset = await gateway.post(mr('/reset_time_estimate')).set(author.headers);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ time_estimate: 0, human_time_estimate: null });
  });

  it('adds spent time, subtracts a negative duration, refuses to go below zero, and resets it', async () => {
    const spent = await gateway.post(mr('/add_spent_time')).set(author.headers).send({ duration: '1d 2h' });
    expect(spent.status).toBe(201);
    expect(spent.body).toMatchObject({ total_time_spent: 10 * 3600, human_total_time_spent: '1d 2h' });
    const less = await gateway.post(mr('/add_spent_time')).set(maintainer.headers).send({ duration: '-90m' });
    expect(less.body).toMatchObject({ total_time_spent: 10 * 3600 - 5400, human_total_time_spent: '1d 30m' });
    const tooMuch = await gateway.post(mr('/add_spent_time')).set(author.headers).send({ duration: '-2d' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toEqual({ message: { time_spent: ['Time to subtract exceeds the total time spent'] } });
    const invalid = await gateway.post(mr('/add_spent_time')).set(author.headers).send({ duration: '3 parsecs' });
    expect(invalid.status).toBe(400);
    const stats = await gateway.get(mr('/time_stats')).set(reporter.headers);
    expect(stats.body).toMatchObject({ total_time_spent: 10 * 3600 - 5400 });
    const reset = await gateway.post(mr('/reset_spent_time')).set(author.headers);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ total_time_spent: 0, human_total_time_spent: null });
    expect((await gateway.get(mr('/time_stats', projectId, 77)).set(reporter.headers)).status).toBe(404);
    expect((await gateway.get(mr('/time_stats')).set(outsider.headers)).status).toBe(404);
  });
});

describe('to-dos and user counts', () => {
  let todoId: number;

  it('marks a merge request as a to-do once (304 after), shown as GitLab shows to-dos', async () => {
    const marked = await gateway.post(mr('/todo')).set(reporter.headers);
    expect(marked.status).toBe(201);
    expect(marked.body).toMatchObject({
      project: { id: projectId, name: 'talk', path: 'talk', path_with_namespace: 'root/talk', name_with_namespace: expect.any(String) },
      author: expect.objectContaining({ id: reporter.id }),
      action_name: 'marked',
      target_type: 'MergeRequest',
      target: expect.objectContaining({ iid: 1, project_id: projectId, title: 'Add a feature' }),
      body: 'Add a feature',
      state: 'pending',
    });
    expect(marked.body.target_url).toMatch(/\/root\/talk\/-\/merge_requests\/1$/);
    todoId = marked.body.id;
    expect((await gateway.post(mr('/todo')).set(reporter.headers)).status).toBe(304);
    expect((await gateway.post(mr('/todo')).set(guest.headers)).status).toBe(403);
    expect((await gateway.post(mr('/todo', projectId, 55)).set(reporter.headers)).status).toBe(404);
  });

  it('lists the caller’s to-dos with their filters, and refuses values GitLab does not know', async () => {
    const mine = await gateway.get('/api/v4/todos').set(reporter.headers);
    expect(mine.status).toBe(200);
    expect(mine.headers['x-total']).toBe('1');
    expect(mine.body.map((todo: { id: number }) => todo.id)).toEqual([todoId]);
    const filtered = async (query: Record<string, string | number>) =>
      (await gateway.get('/api/v4/todos').query(query).set(reporter.headers)).body.map((todo: { id: number }) => todo.id);
    expect(await filtered({ action: 'marked', type: 'MergeRequest', project_id: projectId, author_id: reporter.id })).toEqual([todoId]);
    expect(await filtered({ action: 'assigned' })).toEqual([]);
    expect(await filtered({ type: 'Issue' })).toEqual([]);
    expect(await filtered({ project_id: publicProjectId })).toEqual([]);
    expect(await filtered({ state: 'done' })).toEqual([]);
    expect((await gateway.get('/api/v4/todos').set(author.headers)).body).toEqual([]);
    const badAction = await gateway.get('/api/v4/todos').query({ action: 'noticed' }).set(reporter.headers);
    expect(badAction.status).toBe(400);
    expect(badAction.body).toEqual({ error: 'action does not have a valid value' });
    expect((await gateway.get('/api/v4/todos').query({ state: 'later' }).set(reporter.headers)).status).toBe(400);
  });

  it("counts the caller's open merge requests and pending to-dos", async () => {
    const counts = await gateway.get('/api/v4/user_counts').set(reporter.headers);
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({
      merge_requests: 0,
      assigned_issues: 0,
      issues: 0,
      assigned_merge_requests: 0,
      review_requested_merge_requests: 0,
      todos: 1,
    });
    const assigned = await gateway.get('/api/v4/user_counts').set(maintainer.headers);
    expect(assigned.body).toMatchObject({ merge_requests: 1, assigned_merge_requests: 1, review_requested_merge_requests: 0, todos: 0 });
    expect((await gateway.get('/api/v4/user_counts')).status).toBe(401);
  });

  it('marks one to-do done, 404 for another user’s, and all of them at once', async () => {
    expect((await gateway.post(`/api/v4/todos/${todoId}/mark_as_done`).set(author.headers)).status).toBe(404);
    const done = await gateway.post(`/api/v4/todos/${todoId}/mark_as_done`).set(reporter.headers);
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ id: todoId, state: 'done' });
    expect((await gateway.get('/api/v4/todos').query({ state: 'done' }).set(reporter.headers)).body).toHaveLength(1);
    expect((await gateway.get('/api/v4/user_counts').set(reporter.headers)).body.todos).toBe(0);
    // Done, it may be marked again.
    expect((await gateway.post(mr('/todo')).set(reporter.headers)).status).toBe(201);
    expect((await gateway.post(mr('/todo', publicProjectId)).set(reporter.headers)).status).toBe(201);
    expect((await gateway.get('/api/v4/todos').set(reporter.headers)).body).toHaveLength(2);
    expect((await gateway.post('/api/v4/todos/mark_as_done').set(reporter.headers)).status).toBe(204);
    expect((await gateway.get('/api/v4/todos').set(reporter.headers)).body).toEqual([]);
  });
});
