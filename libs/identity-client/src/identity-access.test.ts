import { describe, expect, it } from '@jest/globals';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import type { Caller } from '@platform/auth';
import { FakeIdentityAccess } from './identity-access.ts';

const user = (userId: number): Caller => ({
  kind: 'user',
  userId,
  username: `user${userId}`,
  name: 'User',
  isAdmin: false,
  scopes: ['api'],
});

const access = new FakeIdentityAccess()
  .add({ resource: 'group', id: 3, path: 'top', levels: { 10: 50, 11: 30 } })
  .add({ resource: 'project', id: 9, path: 'top/app', isPublic: true, levels: { 10: 40 } });

describe('FakeIdentityAccess', () => {
  it('answers the id of a group or project found by id or path when the level suffices', async () => {
    await expect(access.require({ resource: 'group', idOrPath: 'top', caller: user(10), minimumLevel: 50 })).resolves.toBe(3);
    await expect(access.require({ resource: 'project', idOrPath: '9', caller: user(10), minimumLevel: 40 })).resolves.toBe(9);
    await expect(access.requireResource({ resource: 'project', idOrPath: '9', caller: user(10), minimumLevel: 40 })).resolves.toEqual({
      id: 9,
      fullPath: 'top/app',
    });
  });

  it('forbids a member whose level is too low', async () => {
    await expect(access.require({ resource: 'group', idOrPath: '3', caller: user(11), minimumLevel: 50 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });

  it('hides private resources from non-members and unknown ones from everybody', async () => {
    await expect(access.require({ resource: 'group', idOrPath: 'top', caller: user(12), minimumLevel: 0 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(access.require({ resource: 'group', idOrPath: 'nope', caller: user(10), minimumLevel: 0 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('lets anybody see a public resource, and no more', async () => {
    await expect(access.require({ resource: 'project', idOrPath: 'top/app', caller: user(12), minimumLevel: 0 })).resolves.toBe(9);
    await expect(access.require({ resource: 'project', idOrPath: 'top/app', caller: user(12), minimumLevel: 10 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});
