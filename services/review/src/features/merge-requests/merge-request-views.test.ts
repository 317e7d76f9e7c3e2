import { describe, expect, it } from '@jest/globals';
import type { UserSummary } from '../core/user-directory.ts';
import { mergeRequestView, simpleMergeRequestView, type ListedMergeRequest, type ViewContext } from './merge-request-views.ts';

const author: UserSummary = {
  id: 51,
  username: 'developer',
  name: 'Developer',
  state: 'active',
  avatar_url: null,
  web_url: 'http://localhost/developer',
};

const context: ViewContext = {
  project: { id: 10, pathWithNamespace: 'acme/app', webUrl: 'http://localhost/acme/app', mergeMethod: 'merge' },
  users: new Map([[author.id, author]]),
  fromOwnProject: true,
};

function listed(changes: Partial<ListedMergeRequest> = {}): ListedMergeRequest {
  return {
    id: 7,
    iid: 3,
    projectId: 10,
    title: 'Fix the thing',
    description: '- [x] done\n- [ ] not yet',
    state: 'merged',
    createdAt: '2026-11-26T12:00:00.000Z',
    updatedAt: '2026-11-27T12:00:00.000Z',
    sourceProjectId: 10,
    sourceBranch: 'fix',
    targetBranch: 'main',
    draft: false,
    authorId: 51,
    assigneeIds: [51],
    reviewerIds: [],
    labels: ['bug'],
    squash: false,
    forceRemoveSourceBranch: true,
    allowCollaboration: true,
    discussionLocked: null,
    approvalsBeforeMerge: null,
    mergeStatus: 'can_be_merged',
    fastForwardPossible: true,
    headSha: 'abc123',
    mergeCommitSha: 'def456',
    squashCommitSha: null,
    mergedById: 51,
    mergedAt: '2026-11-27T12:00:00.000Z',
    closedById: null,
    closedAt: null,
    timeEstimate: 3600,
    totalTimeSpent: 60,
    userNotesCount: 2,
    blockingDiscussionsResolved: true,
    upvotes: 1,
    downvotes: 0,
    milestone: null,
    mergeWhenPipelineSucceeds: false,
    ...changes,
  };
}

describe('the merge request list view', () => {
  // The list view restates the simple view's fields rather than spreading them: its answer must still begin with them, in their order.
  it('begins with the simple view, field for field and in its order', () => {
    const simple = JSON.stringify(simpleMergeRequestView(listed(), context));
    const view = JSON.stringify(mergeRequestView(listed(), context));

    expect(view.startsWith(`${simple.slice(0, -1)},"merged_by":`)).toBe(true);
  });

  it('shows whether maintainers may push to the source branch only for a merge request from a fork', () => {
    const own = JSON.parse(JSON.stringify(mergeRequestView(listed(), context))) as Record<string, unknown>;
    const fromFork = JSON.parse(JSON.stringify(mergeRequestView(listed({ sourceProjectId: 11 }), context))) as Record<string, unknown>;

    expect(Object.keys(own)).not.toContain('allow_collaboration');
    expect(Object.keys(own)).not.toContain('allow_maintainer_to_push');
    const keys = Object.keys(fromFork);
    expect(keys.slice(keys.indexOf('force_remove_source_branch'), keys.indexOf('reference') + 1)).toEqual([
      'force_remove_source_branch',
      'allow_collaboration',
      'allow_maintainer_to_push',
      'reference',
    ]);
    expect(fromFork).toMatchObject({ allow_collaboration: true, allow_maintainer_to_push: true, reference: '!3' });
  });
});
