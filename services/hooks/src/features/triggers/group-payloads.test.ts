import { describe, expect, it } from '@jest/globals';
import { groupMemberHookPayload, subgroupPayload } from './hook-payloads.ts';

const member = {
  userId: 64,
  username: 'test_user',
  userName: 'Test User',
  userEmail: 'testuser@webhooktest.com',
  accessLevel: 10,
  expiresAt: '2020-12-14',
};
const group = { id: 100, name: 'webhook-test', path: 'webhook-test' };

describe('group member hook payloads', () => {
  it("describe a membership as GitLab's Add member to group example, the email redacted", () => {
    expect(groupMemberHookPayload({ change: 'create', member, group, occurredAt: '2020-12-11T04:57:22.123Z' })).toEqual({
      created_at: '2020-12-11T04:57:22Z',
      updated_at: '2020-12-11T04:57:22Z',
      group_name: 'webhook-test',
      group_path: 'webhook-test',
      group_id: 100,
      user_username: 'test_user',
      user_name: 'Test User',
      user_email: '[REDACTED]',
      user_id: 64,
      group_access: 'Guest',
      group_plan: null,
      expires_at: '2020-12-14T00:00:00Z',
      event_name: 'user_add_to_group',
    });
  });

  it('name each change as group member hooks do', () => {
    const named = (change: Parameters<typeof groupMemberHookPayload>[0]['change']) =>
      groupMemberHookPayload({ change, member, group, occurredAt: '2020-12-11T04:57:22Z' }).event_name;
    expect(['update', 'destroy', 'request', 'revoke'].map((change) => named(change as 'update'))).toEqual([
      'user_update_for_group',
      'user_remove_from_group',
      'user_access_request_to_group',
      'user_access_request_denied_for_group',
    ]);
  });
});

describe('subgroup hook payloads', () => {
  it("describe a subgroup and its parent as GitLab's Create a subgroup in a group example", () => {
    expect(
      subgroupPayload({
        event: 'subgroup_create',
        subgroup: { id: 10, name: 'subgroup1', path: 'subgroup1', fullPath: 'group1/subgroup1' },
        parent: { id: 7, name: 'group1', path: 'group1', fullPath: 'group1' },
        occurredAt: '2021-01-20T09:40:12.345Z',
      }),
    ).toEqual({
      created_at: '2021-01-20T09:40:12Z',
      updated_at: '2021-01-20T09:40:12Z',
      event_name: 'subgroup_create',
      name: 'subgroup1',
      path: 'subgroup1',
      full_path: 'group1/subgroup1',
      group_id: 10,
      parent_group_id: 7,
      parent_name: 'group1',
      parent_path: 'group1',
      parent_full_path: 'group1',
    });
  });
});
