/**
 * python-gitlab drives the repository API (Project.files, Project.commits.create, cherry-pick and
 * revert, Project.repository_tree, Project.repository_archive, branches and Project.tags), and the
 * talk around them (a merge request's discussions and resource state events, issue notes and
 * discussions, commit comments) through the gateway (e2e/python-gitlab/drive_repository.py); git
 * clone then reads back what it wrote. It also plans (e2e/python-gitlab/drive_planning.py): group
 * milestones with their issues and merge requests, label subscriptions, issue links, related merge
 * requests and milestone promotion.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RunningPlatform } from '@platform/devstack';
import { gitCli, gitRemote, type Git } from './git-cli.ts';
import { createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';

const INSTALL = 'apt-get install python3-gitlab (or run `sh scripts/bootstrap.sh` as root)';
/** Debian's interpreter, for which the python3-gitlab package is installed. */
const PYTHON = '/usr/bin/python3';
const script = fileURLToPath(new URL('./python-gitlab/drive_repository.py', import.meta.url));
const planningScript = fileURLToPath(new URL('./python-gitlab/drive_planning.py', import.meta.url));

let platform: RunningPlatform;
let work: string;
let git: Git;

beforeAll(async () => {
  const probe = spawnSync(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`python-gitlab is missing: ${INSTALL}`);
  work = createWorkDir('python-gitlab-repository');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review'] });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('python-gitlab against the repository API', () => {
  it('writes files, commits, branches and tags that python-gitlab reads back and git clone sees', async () => {
    const { stdout } = await promisify(execFile)(PYTHON, [script], {
      env: { ...process.env, GITLAB_URL: platform.url, GITLAB_ROOT_TOKEN: E2E_ROOT_TOKEN },
    });
    const facts = JSON.parse(stdout) as Record<string, unknown>;
    expect(facts).toEqual({
      project_path: 'root/py-repo',
      readme: 'hello\n',
      raw_readme: 'hello again\n',
      existing_file_refusal: [400, 'A file with this name already exists'],
      commit_title: 'Add the app',
      commit_files: ['README.md', 'src/app.py', 'src/run.sh'],
      tree: ['README.md', 'src', 'src/app.py', 'src/run.sh'],
      zip_names: ['README.md', 'src/app.py', 'src/run.sh'],
      tar_names: ['README.md', 'src/app.py', 'src/run.sh'],
      picked_app: "print('fixed')\n",
      reverted_app: "print('hi')\n",
      branches: ['main'],
      annotated_message: 'Release 1.1',
      tags: ['v1.0', 'v1.1'],
      tag_commit: true,
      tags_after_delete: ['v1.1'],
      mr_thread: [
        ['DiffNote', 'Why more?'],
        ['DiscussionNote', 'Because'],
      ],
      mr_thread_line: 2,
      blocking_before: false,
      blocking_after: true,
      mr_state_events: ['closed'],
      issue_notes: ['Let us talk', 'Noted well'],
      issue_discussions: [true, false],
      commit_comments: [
        ['Nice', null, null],
        ['More!', 'README.md', 2],
      ],
    });

    const clone = await git(['clone', '--quiet', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/py-repo'), 'clone']);
    expect(clone).toMatchObject({ code: 0 });
    const cloned = path.join(work, 'clone');
    expect(readFileSync(path.join(cloned, 'README.md'), 'utf8')).toBe('the app\n');
    expect(readFileSync(path.join(cloned, 'src', 'app.py'), 'utf8')).toBe("print('hi')\n");
    const log = await git(['log', '--format=%s', 'main'], cloned);
    expect(log.output.trim().split('\n')).toEqual([
      'Revert "Fix the app"',
      'Fix the app',
      'Add the app',
      'Remove old',
      'Add old',
      'Update README',
      'Add README',
    ]);
    expect((await git(['tag', '--list'], cloned)).output.trim()).toBe('v1.1');
  }, 180_000);

  it('plans with group milestones, label subscriptions, issue links, related merge requests and promotion as python-gitlab does', async () => {
    const { stdout } = await promisify(execFile)(PYTHON, [planningScript], {
      env: { ...process.env, GITLAB_URL: platform.url, GITLAB_ROOT_TOKEN: E2E_ROOT_TOKEN },
    });
    expect(JSON.parse(stdout)).toEqual({
      group_milestones: [['Q1', expect.any(Number)]],
      group_milestone: { title: 'Q1', description: 'First quarter', due_date: '2030-03-31', state: 'active' },
      mr_milestone: [true, true],
      milestone_issues: ['Plan it'],
      milestone_merge_requests: ['Do it'],
      label_subscribed: [true, true],
      label_unsubscribed: [false, false],
      link_ends: true,
      links: [[2, 'blocks']],
      links_after_delete: [],
      related_merge_requests: ['Do it'],
      promote_answer: 200,
      after_promotion: { group_titles: ['Launch', 'Q1'], project_titles: [], issue_milestone: ['Launch', expect.any(Number)] },
      promotion_refusal: [403, '403 Forbidden'],
    });
  }, 180_000);
});
