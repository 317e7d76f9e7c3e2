/**
 * The RPCs review asks about approvers: group members, users' access to a project, users by
 * username and by commit email, the caller's password.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callUnary } from '@platform/grpc';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, TEST_EXTERNAL_URL, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
const asAdmin = () => callerHeader(adminCaller());

beforeAll(async () => {
  harness = await startIdentityHarness('members_grpc');
});

afterAll(async () => {
  await harness?.stop();
});

describe('approver questions over gRPC', () => {
  it("answers a group's active direct members, not inherited ones, and users' effective access to a project", async () => {
    const { api, grpc } = harness;
    const ada = await harness.createUser('ada');
    const bob = await harness.createUser('bob');
    const eve = await harness.createUser('eve');
    const parent = await api.post('/api/v4/groups').set(asAdmin()).send({ name: 'Parent', path: 'parent' });
    const child = await api.post('/api/v4/groups').set(asAdmin()).send({ name: 'Child', path: 'child', parent_id: parent.body.id });
    expect(
      (await api.post(`/api/v4/groups/${parent.body.id}/members`).set(asAdmin()).send({ user_id: ada.id, access_level: 30 })).status,
    ).toBe(201);
    expect(
      (await api.post(`/api/v4/groups/${child.body.id}/members`).set(asAdmin()).send({ user_id: bob.id, access_level: 20 })).status,
    ).toBe(201);
    expect(
      (await api.post(`/api/v4/groups/${child.body.id}/members`).set(asAdmin()).send({ user_id: eve.id, access_level: 30 })).status,
    ).toBe(201);
    expect((await api.post(`/api/v4/users/${eve.id}/block`).set(asAdmin())).status).toBe(201);

    const members = await callUnary(grpc.getGroupMembers.bind(grpc), { groupIds: [child.body.id, parent.body.id, 999_999] });
    const byGroup = new Map(members.groups.map((group) => [group.groupId, group.userIds]));
    // The creator (the administrator) owns each group; ada's membership of the parent is not the child's.
    expect(byGroup.get(child.body.id)).toEqual([1, bob.id]);
    expect(byGroup.get(parent.body.id)).toEqual([1, ada.id]);
    expect(byGroup.has(999_999)).toBe(false);

    const project = await api.post('/api/v4/projects').set(asAdmin()).send({ name: 'App', path: 'app', namespace_id: child.body.id });
    const levels = await callUnary(grpc.getProjectAccessLevels.bind(grpc), {
      projectId: project.body.id,
      userIds: [ada.id, bob.id, eve.id, 1],
    });
    expect(levels.users).toEqual([
      { userId: ada.id, accessLevel: 30, isAdmin: false },
      { userId: bob.id, accessLevel: 20, isAdmin: false },
      { userId: eve.id, accessLevel: 0, isAdmin: false },
      { userId: 1, accessLevel: 50, isAdmin: true },
    ]);
  });

  it('finds users by username case-insensitively, and checks only the caller their own password', async () => {
    const { grpc } = harness;
    const carl = await harness.createUser('Carl');
    const found = await callUnary(grpc.findUsersByUsername.bind(grpc), { usernames: ['carl', 'nobody'] });
    expect(found.users).toEqual([expect.objectContaining({ id: carl.id, username: 'Carl' })]);
    const caller = userCaller(carl.id, 'Carl');
    expect(await callUnary(grpc.verifyPassword.bind(grpc), { password: 'a-long-enough-password' }, { caller })).toEqual({ valid: true });
    expect(await callUnary(grpc.verifyPassword.bind(grpc), { password: 'wrong' }, { caller })).toEqual({ valid: false });
    expect(await callUnary(grpc.verifyPassword.bind(grpc), { password: 'a-long-enough-password' })).toEqual({ valid: false });
  });

  it('finds the users behind commit emails: confirmed primary emails and private commit emails, case-insensitively', async () => {
    const { grpc } = harness;
    const dora = await harness.createUser('dora', { skip_confirmation: true });
    const unconfirmed = await harness.createUser('uma');
    const gus = await harness.createUser('gus');
    const host = new URL(TEST_EXTERNAL_URL).hostname;
    const found = await callUnary(grpc.findUsersByEmail.bind(grpc), {
      emails: [
        'DORA@example.com',
        // Unconfirmed addresses name no one, as GitLab matches only verified emails to committers.
        'uma@example.com',
        `${gus.id}-GUS@users.noreply.${host}`,
        // A private email whose id and username disagree, or on another host, names no one.
        `${gus.id}-dora@users.noreply.${host}`,
        `${dora.id}-dora@users.noreply.elsewhere.test`,
        'nobody@example.com',
      ],
    });
    expect(found.users.map((user) => user.id).sort((a, b) => a - b)).toEqual([dora.id, gus.id]);
    expect(found.users.map((user) => user.id)).not.toContain(unconfirmed.id);
  });
});
