import { describe, expect, it } from '@jest/globals';
import { commitTitle, issuePayload, mergeRequestPayload, pushPayload } from './hook-payloads.ts';
import type { HookProject } from './project-directory.ts';

const project: HookProject = {
  id: 15,
  name: 'Diaspora',
  description: '',
  path: 'diaspora',
  pathWithNamespace: 'mike/diaspora',
  namespaceName: 'Mike',
  namespaceIds: [3],
  visibility: 'public',
  defaultBranch: 'master',
  webUrl: 'http://example.com/mike/diaspora',
};

describe('push payloads', () => {
  it("carry the pushed commits with their changed files, as GitLab's push event example", () => {
    const payload = pushPayload({
      push: {
        ref: 'refs/heads/master',
        refProtected: true,
        before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
        after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        commitCount: 4,
        commits: [
          {
            id: 'b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327',
            message: 'Update Catalan translation to e38cb41.\n\nSee https://gitlab.com/gitlab-org/gitlab for more information',
            authorName: 'Jordi Mallach',
            authorEmail: 'jordi@softcatala.org',
            timestamp: '2011-12-12T14:27:31+02:00',
            added: ['CHANGELOG'],
            modified: ['app/controller/application.rb'],
            removed: [],
          },
        ],
      },
      project,
      user: { id: 4, name: 'John Smith', username: 'jsmith', avatarUrl: null },
    });
    expect(payload).toMatchObject({
      object_kind: 'push',
      ref_protected: true,
      total_commits_count: 4,
      commits: [
        {
          id: 'b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327',
          message: 'Update Catalan translation to e38cb41.\n\nSee https://gitlab.com/gitlab-org/gitlab for more information',
          title: 'Update Catalan translation to e38cb41.',
          timestamp: '2011-12-12T14:27:31+02:00',
          url: 'http://example.com/mike/diaspora/-/commit/b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327',
          author: { name: 'Jordi Mallach', email: 'jordi@softcatala.org' },
          added: ['CHANGELOG'],
          modified: ['app/controller/application.rb'],
          removed: [],
        },
      ],
    });
  });

  it('title commits as GitLab does: the first line, cut at a space after eighty characters once it is a hundred long', () => {
    expect(commitTitle('fixed readme')).toBe('fixed readme');
    expect(commitTitle('First line\r\nsecond')).toBe('First line');
    expect(commitTitle('')).toBe('No commit message');
    const long = `${'word '.repeat(25)}end`;
    expect(commitTitle(long)).toBe(`${'word '.repeat(15)}word…`);
  });
});

describe('merge request payloads', () => {
  it("carry the merge request's attributes as GitLab's merge request event example", () => {
    const payload = mergeRequestPayload({
      mergeRequest: {
        id: 99,
        iid: 1,
        title: 'MS-Viewport',
        state: 'opened',
        sourceBranch: 'ms-viewport',
        targetBranch: 'master',
        authorId: 51,
        mergeCommitSha: null,
        description: '',
        sourceProjectId: 14,
        createdAt: '2013-12-03T17:23:34.000Z',
        updatedAt: '2013-12-03T17:23:34.123Z',
        assigneeIds: [6],
        reviewerIds: [6],
        milestoneId: null,
        mergeStatus: 'unchecked',
        timeEstimate: 5400,
        totalTimeSpent: 0,
        labels: [],
      },
      action: 'open',
      project: { ...project, id: 14 },
      user: { id: 1, name: 'Administrator', username: 'root', avatarUrl: null },
    });
    expect(payload.object_attributes).toMatchObject({
      id: 99,
      iid: 1,
      target_branch: 'master',
      source_branch: 'ms-viewport',
      source_project_id: 14,
      author_id: 51,
      assignee_ids: [6],
      assignee_id: 6,
      reviewer_ids: [6],
      title: 'MS-Viewport',
      created_at: '2013-12-03T17:23:34Z',
      updated_at: '2013-12-03T17:23:34Z',
      milestone_id: null,
      state: 'opened',
      state_id: 1,
      merge_status: 'unchecked',
      target_project_id: 14,
      description: '',
      time_estimate: 5400,
      total_time_spent: 0,
      human_time_estimate: '1h 30m',
      human_total_time_spent: null,
      url: 'http://example.com/mike/diaspora/-/merge_requests/1',
      work_in_progress: false,
      draft: false,
      action: 'open',
    });
    expect(payload.user).toEqual({ id: 1, name: 'Administrator', username: 'root', avatar_url: null, email: '[REDACTED]' });
  });
});

describe('issue payloads', () => {
  const issue = {
    id: 301,
    iid: 23,
    title: 'New API: create/update/delete file',
    description: 'Create new API for manipulations with repository',
    state: 'opened',
    confidential: false,
    authorId: 51,
    assigneeIds: [51],
    milestoneId: null,
    dueDate: null,
    createdAt: '2013-12-03T17:15:43.000Z',
    updatedAt: '2013-12-03T17:15:43.000Z',
    closedAt: null,
    labels: [],
  };

  it("carry the issue's attributes as GitLab's issue event example", () => {
    const payload = issuePayload({
      issue,
      action: 'open',
      project,
      user: { id: 1, name: 'Administrator', username: 'root', avatarUrl: null },
    });
    expect(payload).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      object_attributes: {
        id: 301,
        iid: 23,
        title: 'New API: create/update/delete file',
        description: 'Create new API for manipulations with repository',
        author_id: 51,
        assignee_ids: [51],
        assignee_id: 51,
        milestone_id: null,
        due_date: null,
        closed_at: null,
        created_at: '2013-12-03T17:15:43Z',
        updated_at: '2013-12-03T17:15:43Z',
        confidential: false,
        project_id: 15,
        state: 'opened',
        state_id: 1,
        type: 'Issue',
        url: 'http://example.com/mike/diaspora/-/issues/23',
        action: 'open',
      },
    });
  });

  it('name a confidential issue a confidential_issue event', () => {
    expect(issuePayload({ issue: { ...issue, confidential: true }, action: 'update', project, user: undefined }).event_type).toBe(
      'confidential_issue',
    );
  });
});
