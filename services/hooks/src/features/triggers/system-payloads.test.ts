import { describe, expect, it } from '@jest/globals';
import {
  groupMemberSystemPayload,
  groupSystemPayload,
  projectMemberSystemPayload,
  projectSystemPayload,
  userSystemPayload,
} from './hook-payloads.ts';

const member = {
  userId: 41,
  username: 'johnsmith',
  userName: 'John Smith',
  userEmail: 'johnsmith@example.com',
  accessLevel: 40,
  expiresAt: null,
};

describe('system hook member payloads', () => {
  it("describe a project membership as GitLab's New Team Member example", () => {
    const payload = projectMemberSystemPayload({
      change: 'create',
      member,
      project: { id: 74, name: 'StoreCloud', path: 'storecloud', pathWithNamespace: 'jsmith/storecloud', visibility: 'private' },
      occurredAt: '2012-07-21T07:30:56.250Z',
    });
    expect(payload).toEqual({
      created_at: '2012-07-21T07:30:56Z',
      updated_at: '2012-07-21T07:30:56Z',
      event_name: 'user_add_to_team',
      access_level: 'Maintainer',
      project_id: 74,
      project_name: 'StoreCloud',
      project_path: 'storecloud',
      project_path_with_namespace: 'jsmith/storecloud',
      user_email: 'johnsmith@example.com',
      user_name: 'John Smith',
      user_username: 'johnsmith',
      user_id: 41,
      project_visibility: 'private',
    });
    const removed = projectMemberSystemPayload({
      change: 'destroy',
      member,
      project: { id: 74, name: 'StoreCloud', path: 'storecloud', pathWithNamespace: 'jsmith/storecloud', visibility: 'private' },
      occurredAt: '2012-07-21T07:30:56Z',
    });
    expect(removed.event_name).toBe('user_remove_from_team');
  });

  it("describe a group membership as GitLab's New Group Member example, with its expiry", () => {
    const payload = groupMemberSystemPayload({
      change: 'update',
      member: { ...member, accessLevel: 30, expiresAt: '2020-12-14' },
      group: { id: 78, name: 'StoreCloud', path: 'storecloud' },
      occurredAt: '2012-07-21T07:30:56Z',
    });
    expect(payload).toEqual({
      created_at: '2012-07-21T07:30:56Z',
      updated_at: '2012-07-21T07:30:56Z',
      event_name: 'user_update_for_group',
      group_access: 'Developer',
      group_id: 78,
      group_name: 'StoreCloud',
      group_path: 'storecloud',
      user_email: 'johnsmith@example.com',
      user_name: 'John Smith',
      user_username: 'johnsmith',
      user_id: 41,
      expires_at: '2020-12-14T00:00:00Z',
    });
    const requested = groupMemberSystemPayload({
      change: 'request',
      member,
      group: { id: 78, name: 'StoreCloud', path: 'storecloud' },
      occurredAt: '2012-07-21T07:30:56Z',
    });
    expect(requested.event_name).toBe('user_access_request_to_group');
  });
});

describe('system hook rename payloads', () => {
  it('name the old path of a renamed project, group and user', () => {
    expect(
      projectSystemPayload({
        event: 'project_rename',
        project: { id: 73, name: 'Underscore', path: 'underscore', pathWithNamespace: 'jsmith/underscore', visibility: 'internal' },
        owner: { name: 'John Smith' },
        occurredAt: '2012-07-21T07:30:58Z',
        oldPathWithNamespace: 'jsmith/overscore',
      }),
    ).toMatchObject({
      event_name: 'project_rename',
      path_with_namespace: 'jsmith/underscore',
      old_path_with_namespace: 'jsmith/overscore',
    });
    expect(
      groupSystemPayload({
        event: 'group_rename',
        group: { id: 64, name: 'Better Name', path: 'better-name', fullPath: 'parent-group/better-name' },
        occurredAt: '2017-11-01T10:23:52Z',
        oldPath: 'old-name',
      }),
    ).toMatchObject({
      event_name: 'group_rename',
      full_path: 'parent-group/better-name',
      old_path: 'old-name',
      old_full_path: 'parent-group/old-name',
    });
    expect(
      userSystemPayload({
        event: 'user_rename',
        user: { id: 58, name: 'new-name', username: 'new-exciting-name', email: 'best-email@example.tld' },
        occurredAt: '2017-11-01T14:04:47Z',
        oldUsername: 'old-boring-name',
      }),
    ).toMatchObject({ event_name: 'user_rename', username: 'new-exciting-name', old_username: 'old-boring-name' });
    expect(
      projectSystemPayload({
        event: 'project_create',
        project: { id: 73, name: 'Underscore', path: 'underscore', pathWithNamespace: 'jsmith/underscore', visibility: 'internal' },
        owner: null,
        occurredAt: '2012-07-21T07:30:58Z',
      }),
    ).not.toHaveProperty('old_path_with_namespace');
  });
});
