import { describe, expect, it } from '@jest/globals';
import { gitlabSchemaErrors } from '@platform/testing';
import type { ActivityEvent, PushData } from './activity-event.entity.ts';
import { actionName, activityEventView } from './activity-events-views.ts';

const push: PushData = {
  commit_count: 1,
  action: 'pushed',
  ref_type: 'branch',
  commit_from: 'a'.repeat(40),
  commit_to: 'b'.repeat(40),
  ref: 'main',
  commit_title: 'Fix',
  ref_count: null,
};

const event: ActivityEvent = {
  id: 3,
  projectId: 7,
  authorId: 4,
  authorUsername: 'ada',
  authorName: 'Ada',
  action: 'pushed',
  targetType: null,
  targetId: null,
  targetIid: null,
  targetTitle: null,
  pushData: push,
  note: null,
  sourceEventId: '00000000-0000-4000-8000-000000000000',
  createdAt: new Date('2026-11-22T10:00:00.000Z'),
};

describe('activity event views', () => {
  it("names each action with GitLab's display verb", () => {
    expect(actionName(event)).toBe('pushed to');
    expect(actionName({ ...event, pushData: { ...push, action: 'created' } })).toBe('pushed new');
    expect(actionName({ ...event, pushData: { ...push, action: 'removed' } })).toBe('deleted');
    expect(actionName({ action: 'created', targetType: 'MergeRequest', pushData: null })).toBe('opened');
    expect(actionName({ action: 'reopened', targetType: 'MergeRequest', pushData: null })).toBe('opened');
    expect(actionName({ action: 'created', targetType: null, pushData: null })).toBe('created');
    expect(actionName({ action: 'merged', targetType: 'MergeRequest', pushData: null })).toBe('accepted');
    expect(actionName({ action: 'closed', targetType: 'MergeRequest', pushData: null })).toBe('closed');
    expect(actionName({ action: 'commented', targetType: 'Note', pushData: null })).toBe('commented on');
    expect(actionName({ action: 'joined', targetType: null, pushData: null })).toBe('joined');
    expect(actionName({ action: 'left', targetType: null, pushData: null })).toBe('left');
  });

  it('shows the author as audit knows them now, else as the event named them, in GitLab user/basic shape', () => {
    const now = activityEventView(event, {
      author: { id: 4, username: 'ada.l', name: 'Ada L', state: 'blocked', privateProfile: false },
      externalUrl: 'http://gitlab.test/',
    });
    expect(now).toMatchObject({
      author_username: 'ada.l',
      author: { username: 'ada.l', name: 'Ada L', state: 'blocked', web_url: 'http://gitlab.test/ada.l' },
    });
    expect(gitlabSchemaErrors('user/basic.json', now.author)).toEqual([]);
    const then = activityEventView(event, { author: undefined, externalUrl: 'http://gitlab.test' });
    expect(then).toMatchObject({
      id: 3,
      project_id: 7,
      action_name: 'pushed to',
      author_id: 4,
      author_username: 'ada',
      created_at: '2026-11-22T10:00:00.000Z',
      push_data: push,
      author: { id: 4, username: 'ada', name: 'Ada', state: 'active', avatar_url: null },
    });
    expect(
      activityEventView({ ...event, pushData: null, action: 'joined' }, { author: undefined, externalUrl: 'http://gitlab.test' }),
    ).not.toHaveProperty('push_data');
  });

  it("shows a comment's note with its author, as GitLab's events API does", () => {
    const comment = {
      id: 12,
      body: 'Looks good',
      created_at: '2026-11-22T10:00:00.000Z',
      system: false,
      noteable_id: 31,
      noteable_type: 'MergeRequest',
      noteable_iid: 2,
    };
    const view = activityEventView(
      {
        ...event,
        action: 'commented',
        pushData: null,
        targetType: 'Note',
        targetId: 12,
        targetIid: 12,
        targetTitle: 'Add x',
        note: comment,
      },
      { author: undefined, externalUrl: 'http://gitlab.test' },
    );
    expect(view).toMatchObject({
      action_name: 'commented on',
      target_type: 'Note',
      target_id: 12,
      target_title: 'Add x',
      note: { ...comment, attachment: null, author: { id: 4, username: 'ada' } },
    });
    expect(view).not.toHaveProperty('push_data');
  });
});
