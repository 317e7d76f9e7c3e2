/**
 * Protected branches and merge requests through the real gateway, on repositories the git CLI
 * pushes to over HTTP: one platform for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors } from '@platform/testing';
import {
  addProjectMember,
  createUserWithToken,
  createWorkDir,
  E2E_ROOT_TOKEN,
  type E2eUser,
  MERGE_REQUEST_LIST_ADDED_FIELDS,
  removeWorkDir,
  startTestPlatform,
} from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

let git: Git;

async function createProject(name: string, members: Array<[E2eUser, number]>): Promise<number> {
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name, path: name, visibility: 'private' });
  expect(project.status).toBe(201);
  for (const [user, level] of members) await addProjectMember(gateway, { projectId: project.body.id, userId: user.id, accessLevel: level });
  return project.body.id;
}

/** Writes `content` to `file` in the clone and commits it; answers the new head. */
async function commit(clone: string, file: string, content: string, message: string): Promise<string> {
  writeFileSync(path.join(clone, file), content);
  expect((await git(['add', file], clone)).code).toBe(0);
  expect((await git(['commit', '-q', '-m', message], clone)).code).toBe(0);
  return (await git(['rev-parse', 'HEAD'], clone)).output.trim();
}

let developer: E2eUser;
let maintainer: E2eUser;

beforeAll(async () => {
  work = createWorkDir('mr');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
  gateway = request(platform.url);
  developer = await createUserWithToken(gateway, 'mr-dev');
  maintainer = await createUserWithToken(gateway, 'mr-maintainer');
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('protected branches', () => {
  const projectPath = 'root/guarded';
  let projectId: number;
  let clone: string;
  const asDeveloper = () => gitRemote(platform.url, developer.token, projectPath);
  const asMaintainer = () => gitRemote(platform.url, maintainer.token, projectPath);
  const head = async (branch: string) =>
    (await gateway.get(`/api/v4/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`).set(asRoot)).body.commit?.id;

  beforeAll(async () => {
    projectId = await createProject('guarded', [
      [developer, 30],
      [maintainer, 40],
    ]);
    expect((await git(['clone', '-q', asDeveloper(), 'guarded'])).code).toBe(0);
    clone = path.join(work, 'guarded');
  });

  it('lets a developer push the first branch, which becomes the default branch, protected for maintainers', async () => {
    await commit(clone, 'README.md', 'hello\n', 'Initial commit');
    expect(await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).toMatchObject({ code: 0 });

    const list = await gateway.get(`/api/v4/projects/${projectId}/protected_branches`).set(asRoot);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        name: 'main',
        push_access_levels: [expect.objectContaining({ access_level: 40, access_level_description: 'Maintainers' })],
        merge_access_levels: [expect.objectContaining({ access_level: 40, access_level_description: 'Maintainers' })],
        unprotect_access_levels: [expect.objectContaining({ access_level: 40 })],
        allow_force_push: false,
      }),
    ]);
    const branch = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/main`).set(developer.headers);
    expect(gitlabSchemaErrors('branch.json', branch.body)).toEqual([]);
    expect(branch.body).toMatchObject({
      protected: true,
      default: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
    });
    const asMaintainerView = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/main`).set(maintainer.headers);
    expect(asMaintainerView.body.can_push).toBe(true);
  });

  it("refuses a developer's push to the protected branch with GitLab's message, and the branch stays", async () => {
    const before = await head('main');
    await commit(clone, 'a.txt', 'a\n', 'Developer change');
    const push = await git(['push', 'origin', 'HEAD:refs/heads/main'], clone);
    expect(push.code).not.toBe(0);
    expect(push.output).toContain('GitLab: You are not allowed to push code to protected branches on this project.');
    expect(push.output).toContain('pre-receive hook declined');
    expect(await head('main')).toBe(before);

    expect(await git(['push', '-q', asMaintainer(), 'HEAD:refs/heads/main'], clone)).toMatchObject({ code: 0 });
    expect(await head('main')).toBe((await git(['rev-parse', 'HEAD'], clone)).output.trim());
  });

  it('refuses force pushes unless the protection allows them', async () => {
    expect((await git(['commit', '-q', '--amend', '-m', 'Rewritten'], clone)).code).toBe(0);
    const forced = await git(['push', '-f', asMaintainer(), 'HEAD:refs/heads/main'], clone);
    expect(forced.code).not.toBe(0);
    expect(forced.output).toContain('GitLab: You are not allowed to force push code to a protected branch on this project.');

    const allowed = await gateway
      .patch(`/api/v4/projects/${projectId}/protected_branches/main`)
      .set(asRoot)
      .send({ allow_force_push: true });
    expect(allowed.status).toBe(200);
    expect(allowed.body.allow_force_push).toBe(true);
    expect(await git(['push', '-q', '-f', asMaintainer(), 'HEAD:refs/heads/main'], clone)).toMatchObject({ code: 0 });
    expect((await gateway.get(`/api/v4/projects/${projectId}/repository/commits/main`).set(asRoot)).body.title).toBe('Rewritten');
  });

  it('protects wildcard names: developers push where allowed, nobody deletes over git, the default branch stays', async () => {
    const created = await gateway
      .post(`/api/v4/projects/${projectId}/protected_branches`)
      .set(maintainer.headers)
      .send({ name: 'release/*', push_access_level: 30, merge_access_level: 30 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
      allow_force_push: false,
    });
    expect(await git(['push', '-q', 'origin', 'HEAD:refs/heads/release/1.0'], clone)).toMatchObject({ code: 0 });
    const developerView = await gateway.get(`/api/v4/projects/${projectId}/repository/branches/release%2F1.0`).set(developer.headers);
    expect(developerView.body).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true, can_push: true });

    const byDeveloper = await git(['push', 'origin', ':refs/heads/release/1.0'], clone);
    expect(byDeveloper.output).toContain(
      'GitLab: You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
    );
    const byMaintainer = await git(['push', asMaintainer(), ':refs/heads/release/1.0'], clone);
    expect(byMaintainer.output).toContain('GitLab: You can only delete protected branches using the web interface.');
    const defaultBranch = await git(['push', asMaintainer(), ':refs/heads/main'], clone);
    expect(defaultBranch.output).toContain('GitLab: The default branch of a project cannot be deleted.');
    expect(await head('release/1.0')).toBeDefined();
    expect(await head('main')).toBeDefined();

    const unprotected = await gateway.delete(`/api/v4/projects/${projectId}/protected_branches/release%2F*`).set(maintainer.headers);
    expect(unprotected.status).toBe(204);
    expect(await git(['push', '-q', 'origin', ':refs/heads/release/1.0'], clone)).toMatchObject({ code: 0 });
    expect((await gateway.get(`/api/v4/projects/${projectId}/repository/branches/release%2F1.0`).set(asRoot)).status).toBe(404);
  });

  it('answers bad requests, conflicts, unknown names and too little access as GitLab', async () => {
    const base = `/api/v4/projects/${projectId}/protected_branches`;
    const duplicate = await gateway.post(base).set(asRoot).send({ name: 'main' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: "Protected branch 'main' already exists" });
    const missing = await gateway.post(base).set(asRoot).send({ push_access_level: 30 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const badLevel = await gateway.post(base).set(asRoot).send({ name: 'x', push_access_level: 35 });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ error: 'push_access_level does not have a valid value' });
    expect((await gateway.get(`${base}/nope`).set(asRoot)).status).toBe(404);
    expect((await gateway.delete(`${base}/nope`).set(asRoot)).status).toBe(404);
    expect((await gateway.get(base).set(developer.headers)).status).toBe(403);
    expect((await gateway.post(base).set(developer.headers).send({ name: 'y' })).status).toBe(403);
    expect((await gateway.get(base)).status).toBe(401);
    const single = await gateway.get(`${base}/main`).set(asRoot);
    expect(single.body).toMatchObject({ name: 'main', allow_force_push: true, code_owner_approval_required: false });
  });
});

describe('merge requests', () => {
  const projectPath = 'mr-group/shop';
  let projectId: number;
  let groupId: number;
  let clone: string;
  const base = () => `/api/v4/projects/${projectId}/merge_requests`;
  const asMaintainer = () => gitRemote(platform.url, maintainer.token, projectPath);
  const checkout = async (branch: string, from = 'origin/main') => {
    expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
    expect((await git(['checkout', '-q', '-B', branch, from], clone)).code).toBe(0);
  };
  const open = (body: Record<string, unknown>, as: { 'PRIVATE-TOKEN': string } = developer.headers) =>
    gateway.post(base()).set(as).send(body);

  beforeAll(async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'mr-group', path: 'mr-group', visibility: 'private' });
    expect(group.status).toBe(201);
    groupId = group.body.id;
    const project = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'shop', path: 'shop', namespace_id: groupId, visibility: 'private' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    for (const [user, level] of [
      [developer, 30],
      [maintainer, 40],
    ] as const) {
      expect(
        (await gateway.post(`/api/v4/groups/${groupId}/members`).set(asRoot).send({ user_id: user.id, access_level: level })).status,
      ).toBe(201);
    }
    expect((await git(['clone', '-q', gitRemote(platform.url, developer.token, projectPath), 'shop'])).code).toBe(0);
    clone = path.join(work, 'shop');
    await commit(clone, 'app.txt', 'one\ntwo\nthree\n', 'Start the shop');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);
  });

  let first: Record<string, unknown>;

  it('opens a merge request on pushed branches, with its diff, merge status and references computed from git', async () => {
    await checkout('feature/pay');
    await commit(clone, 'pay.txt', 'pay\n', 'Add payments');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/pay'], clone)).code).toBe(0);
    const head = (await git(['rev-parse', 'HEAD'], clone)).output.trim();
    const mainHead = (await git(['rev-parse', 'origin/main'], clone)).output.trim();

    const created = await open({
      source_branch: 'feature/pay',
      target_branch: 'main',
      title: 'Add payments',
      description: 'Closes nothing\n\n- [x] design\n- [ ] tests',
      assignee_ids: [maintainer.id],
      labels: 'backend,payments',
    });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('merge_request.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({
      iid: 1,
      project_id: projectId,
      source_project_id: projectId,
      target_project_id: projectId,
      state: 'opened',
      merge_status: 'can_be_merged',
      has_conflicts: false,
      sha: head,
      changes_count: '1',
      diff_refs: { base_sha: mainHead, head_sha: head, start_sha: mainHead },
      author: expect.objectContaining({ id: developer.id, username: 'mr-dev' }),
      assignee: expect.objectContaining({ id: maintainer.id }),
      assignees: [expect.objectContaining({ id: maintainer.id })],
      labels: ['backend', 'payments'],
      draft: false,
      work_in_progress: false,
      task_completion_status: { count: 2, completed_count: 1 },
      references: { short: '!1', relative: '!1', full: 'mr-group/shop!1' },
      subscribed: true,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    });
    expect(created.body.web_url).toMatch(/\/mr-group\/shop\/-\/merge_requests\/1$/);
    first = created.body;
  });

  it('refuses a second merge request for the same branches, the same branch twice, unknown branches and missing fields', async () => {
    const again = await open({ source_branch: 'feature/pay', target_branch: 'main', title: 'Again' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: ['Another open merge request already exists for this source branch: !1'] });
    const same = await open({ source_branch: 'main', target_branch: 'main', title: 'Same' });
    expect(same.status).toBe(422);
    expect(same.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
    const unknown = await open({ source_branch: 'nope', target_branch: 'main', title: 'Unknown' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Invalid source branch: nope' });
    const missing = await open({ source_branch: 'feature/pay', target_branch: 'main' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'title is missing' });
    expect((await gateway.get(`${base()}/abc`).set(developer.headers)).status).toBe(400);
    const absent = await gateway.get(`${base()}/999`).set(developer.headers);
    expect(absent.status).toBe(404);
    expect(absent.body).toEqual({ message: '404 Merge Request Not Found' });
  });

  it('records a diff version at creation and on every push to the source branch, newest first, with commits and diffs from git', async () => {
    writeFileSync(path.join(clone, 'pay.txt'), 'pay\nrefund\n');
    expect((await git(['add', 'pay.txt'], clone)).code).toBe(0);
    await commit(clone, 'README.md', '# Shop\n', 'Document and refund');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/pay'], clone)).code).toBe(0);
    const head = (await git(['rev-parse', 'HEAD'], clone)).output.trim();

    const versions = await gateway.get(`${base()}/1/versions`).set(developer.headers);
    expect(versions.status).toBe(200);
    expect(versions.body).toHaveLength(2);
    expect(versions.body[0]).toMatchObject({ head_commit_sha: head, state: 'collected', real_size: '2', merge_request_id: first.id });
    expect(versions.body[1].head_commit_sha).toBe((first as { sha: string }).sha);

    const latest = await gateway.get(`${base()}/1/versions/${versions.body[0].id}`).set(developer.headers);
    expect(latest.body.commits.map((commit: { title: string }) => commit.title)).toEqual(['Document and refund', 'Add payments']);
    const readme = latest.body.diffs.find((diff: { new_path: string }) => diff.new_path === 'README.md');
    expect(readme).toEqual({
      old_path: 'README.md',
      new_path: 'README.md',
      a_mode: '0',
      b_mode: '100644',
      new_file: true,
      renamed_file: false,
      deleted_file: false,
      generated_file: false,
      collapsed: false,
      too_large: false,
      diff: '@@ -0,0 +1 @@\n+# Shop\n',
    });
    const older = await gateway.get(`${base()}/1/versions/${versions.body[1].id}`).set(developer.headers);
    expect(older.body.diffs.map((diff: { new_path: string }) => diff.new_path)).toEqual(['pay.txt']);

    const changes = await gateway.get(`${base()}/1/changes`).set(developer.headers);
    expect(changes.body.changes.map((diff: { new_path: string }) => diff.new_path).sort()).toEqual(['README.md', 'pay.txt']);
    expect(changes.body.changes_count).toBe('2');
    // Shown as a commit's diffs are (Entities::Diff), bounds included.
    expect(changes.body.changes[0]).toMatchObject({ collapsed: false, too_large: false, generated_file: false });
    const commits = await gateway.get(`${base()}/1/commits`).set(developer.headers);
    expect(commits.body.map((commit: { id: string }) => commit.id)[0]).toBe(head);
    expect((await gateway.get(`${base()}/1/versions/999999`).set(developer.headers)).status).toBe(404);
  });

  it('sees a conflicting change on the target as cannot_be_merged, and refuses to merge it with 406', async () => {
    await checkout('conflict');
    await commit(clone, 'pay.txt', 'something else\n', 'Conflicting payments');
    expect((await git(['push', '-q', asMaintainer(), 'HEAD:refs/heads/main'], clone)).code).toBe(0);
    const checked = await gateway.get(`${base()}/1`).set(developer.headers);
    expect(checked.body).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true, detailed_merge_status: 'conflict' });
    const refused = await gateway.put(`${base()}/1/merge`).set(maintainer.headers);
    expect(refused.status).toBe(406);
    expect(refused.body).toEqual({ message: 'Branch cannot be merged' });
  });

  it('merges with a real merge commit whose parents are the old target head and the source head', async () => {
    await checkout('feature/cart');
    await commit(clone, 'cart.txt', 'cart\n', 'Add a cart');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/cart'], clone)).code).toBe(0);
    const sourceHead = (await git(['rev-parse', 'HEAD'], clone)).output.trim();
    const targetHead = (await git(['rev-parse', 'origin/main'], clone)).output.trim();
    const created = await open({ source_branch: 'feature/cart', target_branch: 'main', title: 'Add a cart', remove_source_branch: true });
    expect(created.body).toMatchObject({ iid: 2, merge_status: 'can_be_merged' });

    // The default branch is protected: developers may not merge into it.
    expect((await gateway.put(`${base()}/2/merge`).set(developer.headers)).status).toBe(401);
    const stale = await gateway.put(`${base()}/2/merge`).set(maintainer.headers).send({ sha: targetHead });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ message: 'SHA does not match HEAD of source branch' });

    const merged = await gateway.put(`${base()}/2/merge`).set(maintainer.headers).send({ sha: sourceHead });
    expect(merged.status).toBe(200);
    expect(gitlabSchemaErrors('merge_request.json', merged.body)).toEqual([]);
    expect(merged.body).toMatchObject({
      state: 'merged',
      merged_by: expect.objectContaining({ id: maintainer.id }),
      should_remove_source_branch: true,
    });
    const mergeCommit = merged.body.merge_commit_sha as string;

    expect((await git(['fetch', '-q', '--prune', 'origin'], clone)).code).toBe(0);
    const log = await git(['log', '-1', '--format=%H %P%n%s', 'origin/main'], clone);
    expect(log.output).toBe(`${mergeCommit} ${targetHead} ${sourceHead}\nMerge branch 'feature/cart' into 'main'\n`);
    expect((await git(['rev-parse', '--verify', '-q', 'origin/feature/cart'], clone)).code).not.toBe(0);
    const again = await gateway.put(`${base()}/2/merge`).set(maintainer.headers);
    expect(again.status).toBe(405);
  });

  it('squashes into one commit when asked, and refuses to merge a draft with 405', async () => {
    await checkout('feature/wishlist');
    await commit(clone, 'wish.txt', 'a\n', 'Wish one');
    await commit(clone, 'wish.txt', 'a\nb\n', 'Wish two');
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/feature/wishlist'], clone)).code).toBe(0);
    const created = await open({ source_branch: 'feature/wishlist', target_branch: 'main', title: 'Draft: wishlist', squash: true });
    expect(created.body).toMatchObject({ draft: true, work_in_progress: true, squash: true });
    const draft = await gateway.put(`${base()}/${created.body.iid}/merge`).set(maintainer.headers);
    expect(draft.status).toBe(405);

    const ready = await gateway.put(`${base()}/${created.body.iid}`).set(developer.headers).send({ title: 'Wishlist' });
    expect(ready.body).toMatchObject({ draft: false, title: 'Wishlist' });
    const merged = await gateway
      .put(`${base()}/${created.body.iid}/merge`)
      .set(maintainer.headers)
      .send({ squash_commit_message: 'Add a wishlist' });
    expect(merged.status).toBe(200);
    const squash = merged.body.squash_commit_sha as string;
    expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);
    expect((await git(['log', '-1', '--format=%s', squash], clone)).output).toBe('Add a wishlist\n');
    expect((await git(['rev-list', '--count', `${squash}^..${squash}`], clone)).output.trim()).toBe('1');
    expect((await git(['log', '-1', '--format=%P', 'origin/main'], clone)).output.trim().split(' ')[1]).toBe(squash);
  });

  it('closes and reopens, and lists with GitLab’s filters in the project, the group and across projects', async () => {
    const closed = await gateway.put(`${base()}/1`).set(developer.headers).send({ state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: expect.objectContaining({ id: developer.id }) });
    const titles = async (query: string, as = developer.headers, path = base()) => {
      const response = await gateway.get(`${path}?${query}`).set(as);
      expect(response.status).toBe(200);
      return response.body.map((item: { title: string }) => item.title);
    };
    expect(await titles('state=closed')).toEqual(['Add payments']);
    expect(await titles('state=merged&order_by=created_at&sort=asc')).toEqual(['Add a cart', 'Wishlist']);
    expect((await gateway.put(`${base()}/1`).set(developer.headers).send({ state_event: 'reopen' })).body.state).toBe('opened');
    expect(await titles('state=opened')).toEqual(['Add payments']);
    expect(await titles('labels=payments')).toEqual(['Add payments']);
    expect(await titles('labels=None&sort=asc')).toEqual(['Add a cart', 'Wishlist']);
    expect(await titles('search=cart')).toEqual(['Add a cart']);
    expect(await titles('search=refund&in=title')).toEqual([]);
    expect(await titles('author_username=mr-dev&state=opened')).toEqual(['Add payments']);
    expect(await titles(`assignee_id=${maintainer.id}`)).toEqual(['Add payments']);
    expect(await titles('assignee_id=None&sort=asc')).toEqual(['Add a cart', 'Wishlist']);
    expect(await titles('iids[]=2&iids[]=3&sort=asc')).toEqual(['Add a cart', 'Wishlist']);
    expect(await titles('source_branch=feature/cart')).toEqual(['Add a cart']);
    expect(await titles('wip=no&state=opened')).toEqual(['Add payments']);
    expect(await titles('milestone=v1')).toEqual([]);
    expect(await titles('not[labels]=payments&sort=asc')).toEqual(['Add a cart', 'Wishlist']);
    const listed = await gateway.get(`${base()}?state=all`).set(developer.headers);
    expect(gitlabSchemaErrors('merge_requests.json', listed.body, { added: MERGE_REQUEST_LIST_ADDED_FIELDS })).toEqual([]);
    const simple = await gateway.get(`${base()}?view=simple&state=opened`).set(developer.headers);
    expect(gitlabSchemaErrors('merge_request_simple.json', simple.body[0])).toEqual([]);
    const both = await gateway.get(`${base()}?author_id=1&author_username=root`).set(developer.headers);
    expect(both.status).toBe(400);

    expect(await titles('state=opened', developer.headers, '/api/v4/merge_requests')).toEqual(['Add payments']);
    expect(await titles('state=opened', maintainer.headers, '/api/v4/merge_requests')).toEqual([]);
    expect(await titles('scope=assigned_to_me', maintainer.headers, '/api/v4/merge_requests')).toEqual(['Add payments']);
    expect(await titles('scope=assigned-to-me', maintainer.headers, '/api/v4/merge_requests')).toEqual(['Add payments']);
    const global = await gateway.get('/api/v4/merge_requests?scope=all&state=opened').set(developer.headers);
    expect(global.body[0].references).toEqual({ short: '!1', relative: 'mr-group/shop!1', full: 'mr-group/shop!1' });
    expect(await titles('scope=all&state=opened', maintainer.headers, `/api/v4/groups/${groupId}/merge_requests`)).toEqual([
      'Add payments',
    ]);
    const outsider = await createUserWithToken(gateway, 'mr-outsider');
    expect(await titles('scope=all', outsider.headers, '/api/v4/merge_requests')).toEqual([]);
    expect((await gateway.get(`/api/v4/groups/${groupId}/merge_requests`).set(outsider.headers)).status).toBe(404);
    expect((await gateway.get(base()).set(outsider.headers)).status).toBe(404);
  });
});
