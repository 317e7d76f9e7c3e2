import { describe, expect, it } from '@jest/globals';
import { issuePayload, mergeRequestPayload, notePayload, type IssueFacts, type MergeRequestFacts } from './hook-payloads.ts';
import type { HookProject } from './project-directory.ts';

const project: HookProject = {
  id: 5,
  name: 'Gitlab Test',
  description: 'Aut reprehenderit ut est.',
  path: 'gitlab-test',
  pathWithNamespace: 'gitlab-org/gitlab-test',
  namespaceName: 'Gitlab Org',
  namespaceIds: [3],
  visibility: 'internal',
  defaultBranch: 'master',
  webUrl: 'http://example.com/gitlab-org/gitlab-test',
};
const root = { id: 1, name: 'Administrator', username: 'root', avatarUrl: null };
const user1 = { id: 6, name: 'User1', username: 'user1', avatarUrl: null };
const users = new Map([
  [1, root],
  [6, user1],
]);
const mergeRequest: MergeRequestFacts = {
  id: 7,
  iid: 1,
  title: 'Tempora et eos debitis quae laborum et.',
  state: 'opened',
  sourceBranch: 'master',
  targetBranch: 'markdown',
  authorId: 8,
  mergeCommitSha: null,
  description: 'Et voluptas corrupti assumenda temporibus.',
  sourceProjectId: 5,
  createdAt: '2015-03-01T20:12:53Z',
  updatedAt: '2015-03-21T18:27:27Z',
  assigneeIds: [],
  reviewerIds: [],
  milestoneId: 11,
  mergeStatus: 'cannot_be_merged',
  timeEstimate: 0,
  totalTimeSpent: 0,
  labels: [],
};
const issue: IssueFacts = {
  id: 92,
  iid: 17,
  title: 'test',
  description: 'test',
  state: 'opened',
  confidential: false,
  authorId: 1,
  assigneeIds: [],
  milestoneId: null,
  dueDate: null,
  createdAt: '2015-04-12T14:53:17Z',
  updatedAt: '2015-04-26T08:28:42Z',
  closedAt: null,
  labels: [],
};

describe('merge request changes', () => {
  it('name each changed attribute with its previous and current value, and the assignees and reviewers as users', () => {
    const current = {
      ...mergeRequest,
      title: 'Draft: Tempora',
      assigneeIds: [6],
      reviewerIds: [1, 6],
      updatedAt: '2017-09-15T16:52:00.250Z',
    };
    const payload = mergeRequestPayload({ mergeRequest: current, action: 'update', project, user: root, users, previous: mergeRequest });
    expect(payload.changes).toEqual({
      title: { previous: 'Tempora et eos debitis quae laborum et.', current: 'Draft: Tempora' },
      draft: { previous: false, current: true },
      updated_at: { previous: '2015-03-21 18:27:27 UTC', current: '2017-09-15 16:52:00 UTC' },
      assignees: { previous: [], current: [{ id: 6, name: 'User1', username: 'user1', avatar_url: null, email: '[REDACTED]' }] },
      reviewers: {
        previous: [],
        current: [
          { id: 1, name: 'Administrator', username: 'root', avatar_url: null, email: '[REDACTED]' },
          { id: 6, name: 'User1', username: 'user1', avatar_url: null, email: '[REDACTED]' },
        ],
      },
    });
    expect(payload.assignees).toEqual([{ id: 6, name: 'User1', username: 'user1', avatar_url: null, email: '[REDACTED]' }]);
    expect(payload.reviewers).toHaveLength(2);
    expect(payload.object_attributes).toMatchObject({ action: 'update', draft: true, work_in_progress: true });
  });

  it('name no change for a new merge request, and leave out assignees and reviewers when it has none', () => {
    const payload = mergeRequestPayload({ mergeRequest, action: 'open', project, user: root, users });
    expect(payload.changes).toEqual({});
    expect(payload).not.toHaveProperty('assignees');
    expect(payload).not.toHaveProperty('reviewers');
  });

  it("show the source branch's head as last_commit, as GitLab's merge request event example, and null when unknown", () => {
    const lastCommit = {
      id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      message: 'fixed readme',
      authorName: 'GitLab dev user',
      authorEmail: 'gitlabdev@dv6700.(none)',
      timestamp: '2012-01-03T23:36:29+02:00',
    };
    const payload = mergeRequestPayload({ mergeRequest: { ...mergeRequest, lastCommit }, action: 'open', project, user: root, users });
    expect(payload.object_attributes.last_commit).toEqual({
      id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      message: 'fixed readme',
      title: 'fixed readme',
      timestamp: '2012-01-03T23:36:29+02:00',
      url: 'http://example.com/gitlab-org/gitlab-test/-/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      author: { name: 'GitLab dev user', email: 'gitlabdev@dv6700.(none)' },
    });
    expect(mergeRequestPayload({ mergeRequest, action: 'open', project, user: root, users }).object_attributes.last_commit).toBeNull();
  });

  it('name the state change of a closed merge request', () => {
    const closed = { ...mergeRequest, state: 'closed', updatedAt: '2015-03-22T10:00:00Z' };
    const payload = mergeRequestPayload({ mergeRequest: closed, action: 'close', project, user: root, users, previous: mergeRequest });
    expect(payload.changes).toEqual({
      state_id: { previous: 1, current: 2 },
      updated_at: { previous: '2015-03-21 18:27:27 UTC', current: '2015-03-22 10:00:00 UTC' },
    });
  });
});

describe('labels', () => {
  const api = {
    id: 206,
    type: 'ProjectLabel' as const,
    title: 'API',
    color: '#ffffff',
    description: 'API related issues',
    projectId: 14,
    groupId: null,
    createdAt: '2013-12-03T17:15:43.000Z',
    updatedAt: '2013-12-03T17:15:43.000Z',
  };
  const platform = { ...api, id: 205, title: 'Platform', color: '#123123', description: 'Platform related issues' };

  it("show a merge request's labels as GitLab's merge request event example, and a change of them", () => {
    const payload = mergeRequestPayload({
      mergeRequest: { ...mergeRequest, labels: [platform] },
      action: 'update',
      project,
      user: root,
      users,
      previous: { ...mergeRequest, labels: [api] },
    });
    const apiAttributes = {
      id: 206,
      title: 'API',
      color: '#ffffff',
      project_id: 14,
      created_at: '2013-12-03T17:15:43Z',
      updated_at: '2013-12-03T17:15:43Z',
      template: false,
      description: 'API related issues',
      type: 'ProjectLabel',
      group_id: null,
    };
    const platformAttributes = { ...apiAttributes, id: 205, title: 'Platform', color: '#123123', description: 'Platform related issues' };
    expect(payload.labels).toEqual([platformAttributes]);
    expect(payload.object_attributes.labels).toEqual([platformAttributes]);
    expect(payload.changes).toEqual({ labels: { previous: [apiAttributes], current: [platformAttributes] } });
  });

  it("show an issue's labels and their change", () => {
    const payload = issuePayload({ issue: { ...issue, labels: [api] }, action: 'update', project, user: root, users, previous: issue });
    expect(payload.labels).toEqual([expect.objectContaining({ id: 206, title: 'API', type: 'ProjectLabel' })]);
    expect(payload.object_attributes.labels).toHaveLength(1);
    expect(payload.changes).toEqual({ labels: { previous: [], current: [expect.objectContaining({ title: 'API' })] } });
  });
});

describe('issue changes', () => {
  it('name the changed attributes and assignees, and show the assignees and the first one', () => {
    const current = { ...issue, state: 'closed', closedAt: '2015-04-27T09:00:00Z', assigneeIds: [6], updatedAt: '2015-04-27T09:00:00Z' };
    const payload = issuePayload({ issue: current, action: 'close', project, user: root, users, previous: issue });
    expect(payload.changes).toEqual({
      state_id: { previous: 1, current: 2 },
      closed_at: { previous: null, current: '2015-04-27 09:00:00 UTC' },
      updated_at: { previous: '2015-04-26 08:28:42 UTC', current: '2015-04-27 09:00:00 UTC' },
      assignees: { previous: [], current: [{ id: 6, name: 'User1', username: 'user1', avatar_url: null, email: '[REDACTED]' }] },
    });
    expect(payload.assignee).toEqual({ id: 6, name: 'User1', username: 'user1', avatar_url: null, email: '[REDACTED]' });
  });
});

describe('note payloads', () => {
  const note = {
    id: 1244,
    body: 'This MR needs work.',
    noteableType: 'MergeRequest',
    noteableId: 7,
    noteableIid: 1,
    authorId: 1,
    createdAt: '2015-05-17T18:21:36.000Z',
    updatedAt: '2015-05-17T18:21:36.000Z',
  };

  it("carry the note and its merge request as GitLab's comment on a merge request example", () => {
    const payload = notePayload({ note, action: 'create', noteable: { mergeRequest }, project, user: root });
    expect(payload).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { id: 1, username: 'root', email: '[REDACTED]' },
      project_id: 5,
      project: { id: 5, path_with_namespace: 'gitlab-org/gitlab-test' },
      repository: { name: 'Gitlab Test', description: 'Aut reprehenderit ut est.', homepage: 'http://example.com/gitlab-org/gitlab-test' },
      object_attributes: {
        id: 1244,
        note: 'This MR needs work.',
        noteable_type: 'MergeRequest',
        author_id: 1,
        created_at: '2015-05-17 18:21:36 UTC',
        updated_at: '2015-05-17 18:21:36 UTC',
        project_id: 5,
        attachment: null,
        line_code: null,
        commit_id: '',
        noteable_id: 7,
        system: false,
        st_diff: null,
        action: 'create',
        url: 'http://example.com/gitlab-org/gitlab-test/-/merge_requests/1#note_1244',
      },
      merge_request: {
        id: 7,
        iid: 1,
        target_branch: 'markdown',
        source_branch: 'master',
        source_project_id: 5,
        author_id: 8,
        title: 'Tempora et eos debitis quae laborum et.',
        created_at: '2015-03-01T20:12:53Z',
        milestone_id: 11,
        state: 'opened',
        merge_status: 'cannot_be_merged',
        target_project_id: 5,
        url: 'http://example.com/gitlab-org/gitlab-test/-/merge_requests/1',
      },
    });
    expect((payload as { merge_request: object }).merge_request).not.toHaveProperty('action');
    expect(payload).not.toHaveProperty('issue');
  });

  it('carry the issue of a note on an issue, a confidential one as a confidential_note event', () => {
    const onIssue = { ...note, id: 1241, noteableType: 'Issue', noteableId: 92, noteableIid: 17 };
    const payload = notePayload({ note: onIssue, action: 'update', noteable: { issue }, project, user: root });
    expect(payload).toMatchObject({
      event_type: 'note',
      object_attributes: {
        noteable_type: 'Issue',
        action: 'update',
        url: 'http://example.com/gitlab-org/gitlab-test/-/issues/17#note_1241',
      },
      issue: { id: 92, iid: 17, title: 'test', state: 'opened' },
    });
    const secret = notePayload({
      note: onIssue,
      action: 'create',
      noteable: { issue: { ...issue, confidential: true } },
      project,
      user: root,
    });
    expect(secret.event_type).toBe('confidential_note');
  });

  it("carry a comment on a commit with the commit as GitLab's comment on a commit example", () => {
    const commit = {
      id: 'cfe32cf61b73a0d5e9f13e774abde7ff789b1660',
      message: 'Add submodule\n\nSigned-off-by: Example User <user@example.com.com>\n',
      authorName: 'Example User',
      authorEmail: 'user@example.com',
      timestamp: '2014-02-27T10:06:20+02:00',
    };
    const payload = notePayload({
      note: {
        ...note,
        id: 1243,
        body: 'This is a commit comment. How does this work?',
        noteableType: 'Commit',
        noteableId: 0,
        noteableIid: 0,
      },
      action: 'create',
      noteable: { commit },
      project,
      user: root,
    });
    expect(payload).toMatchObject({
      event_type: 'note',
      object_attributes: {
        id: 1243,
        noteable_type: 'Commit',
        commit_id: 'cfe32cf61b73a0d5e9f13e774abde7ff789b1660',
        noteable_id: null,
        url: 'http://example.com/gitlab-org/gitlab-test/-/commit/cfe32cf61b73a0d5e9f13e774abde7ff789b1660#note_1243',
      },
      commit: {
        id: 'cfe32cf61b73a0d5e9f13e774abde7ff789b1660',
        message: 'Add submodule\n\nSigned-off-by: Example User <user@example.com.com>\n',
        title: 'Add submodule',
        timestamp: '2014-02-27T10:06:20+02:00',
        url: 'http://example.com/gitlab-org/gitlab-test/-/commit/cfe32cf61b73a0d5e9f13e774abde7ff789b1660',
        author: { name: 'Example User', email: 'user@example.com' },
      },
    });
    expect(payload).not.toHaveProperty('merge_request');
    expect(payload).not.toHaveProperty('issue');
  });
});
