import { describe, expect, it } from '@jest/globals';
import type { Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import { FakeIdentityAccess } from './identity-access.ts';
import { ACCESS_LEVEL } from './access-level.ts';
import { requireProjectAccess } from './project-access.ts';

const user = (userId: number, isAdmin = false): Caller => ({
  kind: 'user',
  userId,
  username: `user${userId}`,
  name: 'User',
  isAdmin,
  scopes: ['api'],
});

const GUEST_ID = 1;
const REPORTER_ID = 2;
const DEVELOPER_ID = 3;
const MAINTAINER_ID = 4;
const STRANGER_ID = 5;
const ADMIN_ID = 6;

const levels = {
  [GUEST_ID]: ACCESS_LEVEL.GUEST,
  [REPORTER_ID]: ACCESS_LEVEL.REPORTER,
  [DEVELOPER_ID]: ACCESS_LEVEL.DEVELOPER,
  [MAINTAINER_ID]: ACCESS_LEVEL.MAINTAINER,
};
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'top/secret', levels })
  .add({ resource: 'project', id: 8, path: 'top/open', isPublic: true, levels });

describe('ACCESS_LEVEL', () => {
  it("holds GitLab's numbers", () => {
    expect(ACCESS_LEVEL).toEqual({
      NO_ACCESS: 0,
      MINIMAL_ACCESS: 5,
      GUEST: 10,
      REPORTER: 20,
      DEVELOPER: 30,
      MAINTAINER: 40,
      OWNER: 50,
      ADMIN: 60,
    });
  });
});

describe('requireProjectAccess', () => {
  it('answers the project, found by id or full path, when the caller has the level', async () => {
    const byId = await requireProjectAccess({ access, caller: user(DEVELOPER_ID), idOrPath: 7, minimumLevel: ACCESS_LEVEL.DEVELOPER });
    expect(byId).toMatchObject({ id: 7, pathWithNamespace: 'top/secret', accessLevel: ACCESS_LEVEL.DEVELOPER });
    const byPath = await requireProjectAccess({
      access,
      caller: user(MAINTAINER_ID),
      idOrPath: 'top/secret',
      minimumLevel: ACCESS_LEVEL.DEVELOPER,
    });
    expect(byPath.id).toBe(7);
  });

  it('refuses a project the caller cannot see as not found, whatever the level asked', async () => {
    const refusal = requireProjectAccess({ access, caller: user(STRANGER_ID), idOrPath: 7, minimumLevel: ACCESS_LEVEL.NO_ACCESS });
    await expect(refusal).rejects.toBeInstanceOf(NotFoundError);
    await expect(refusal).rejects.toThrow('Project Not Found');
    await expect(
      requireProjectAccess({ access, caller: user(MAINTAINER_ID), idOrPath: 99, minimumLevel: ACCESS_LEVEL.GUEST }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('forbids a caller who sees the project with too little access', async () => {
    await expect(
      requireProjectAccess({ access, caller: user(REPORTER_ID), idOrPath: 7, minimumLevel: ACCESS_LEVEL.DEVELOPER }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      requireProjectAccess({ access, caller: user(STRANGER_ID), idOrPath: 8, minimumLevel: ACCESS_LEVEL.GUEST }),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('lets administrators through whatever their level', async () => {
    const project = await requireProjectAccess({ access, caller: user(ADMIN_ID, true), idOrPath: 7, minimumLevel: ACCESS_LEVEL.OWNER });
    expect(project).toMatchObject({ id: 7, isAdmin: true, accessLevel: 0 });
  });

  it('asks the private level on a private project only, and the greater of the two levels there', async () => {
    const reads = { minimumLevel: ACCESS_LEVEL.NO_ACCESS, privateMinimumLevel: ACCESS_LEVEL.REPORTER };
    await expect(requireProjectAccess({ access, caller: user(STRANGER_ID), idOrPath: 8, ...reads })).resolves.toMatchObject({ id: 8 });
    await expect(requireProjectAccess({ access, caller: user(GUEST_ID), idOrPath: 7, ...reads })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(requireProjectAccess({ access, caller: user(REPORTER_ID), idOrPath: 7, ...reads })).resolves.toMatchObject({ id: 7 });

    const writes = { minimumLevel: ACCESS_LEVEL.GUEST, privateMinimumLevel: ACCESS_LEVEL.REPORTER };
    await expect(requireProjectAccess({ access, caller: user(GUEST_ID), idOrPath: 8, ...writes })).resolves.toMatchObject({ id: 8 });
    await expect(requireProjectAccess({ access, caller: user(GUEST_ID), idOrPath: 7, ...writes })).rejects.toBeInstanceOf(ForbiddenError);
    const higher = { minimumLevel: ACCESS_LEVEL.MAINTAINER, privateMinimumLevel: ACCESS_LEVEL.REPORTER };
    await expect(requireProjectAccess({ access, caller: user(DEVELOPER_ID), idOrPath: 7, ...higher })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});
