import { describe, expect, it } from '@jest/globals';
import type { Caller } from '@platform/auth';
import { FakeIdentityAccess, type IdentityAccess } from '@platform/identity-client';
import { adminCaller, userCaller } from '@platform/testing';
import { ProjectVisibility } from './project-visibility.ts';

/** The fake's answers, counting the questions. */
function countingAccess(fake: IdentityAccess) {
  const asked: string[] = [];
  return {
    asked,
    access: {
      project: (options: { idOrPath: string; caller: Caller }) => {
        asked.push(options.idOrPath);
        return fake.project(options);
      },
    },
  };
}

const fake = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', levels: { 21: 20 } })
  .add({ resource: 'project', id: 8, path: 'acme/site', isPublic: true });
const member = userCaller(21, 'member');
const outsider = userCaller(22, 'outsider');

describe('project visibility for activity lists', () => {
  it('shows private projects to members and administrators, public ones to everyone; only memberships make a member', async () => {
    const visibility = new ProjectVisibility({ access: fake, ttlMs: 60_000 });
    expect(await visibility.maySee(member, 7)).toBe(true);
    expect(await visibility.maySee(outsider, 7)).toBe(false);
    expect(await visibility.maySee({ kind: 'anonymous' }, 8)).toBe(true);
    expect(await visibility.maySee(adminCaller(), 7)).toBe(true);
    expect(await visibility.isMember(member, 7)).toBe(true);
    expect(await visibility.isMember(member, 8)).toBe(false);
    expect(await visibility.isMember(adminCaller(), 7)).toBe(false);
  });

  it('asks identity once per caller and project while the answer is fresh, and again once it expired', async () => {
    const { asked, access } = countingAccess(fake);
    let visibility = new ProjectVisibility({ access, ttlMs: 60_000 });
    await visibility.maySee(member, 7);
    await visibility.isMember(member, 7);
    await visibility.maySee(outsider, 7);
    await visibility.maySee(outsider, 7);
    expect(asked).toEqual(['7', '7']);
    visibility = new ProjectVisibility({ access, ttlMs: 1 });
    await visibility.maySee(member, 7);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await visibility.maySee(member, 7);
    expect(asked).toHaveLength(4);
  });

  it('lets an error other than "not found" through, unremembered', async () => {
    const failing = { project: async () => Promise.reject(new Error('identity unavailable')) };
    const visibility = new ProjectVisibility({ access: failing, ttlMs: 60_000 });
    await expect(visibility.maySee(member, 7)).rejects.toThrow('identity unavailable');
  });
});
