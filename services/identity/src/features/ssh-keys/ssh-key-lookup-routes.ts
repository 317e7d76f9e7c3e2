import { z } from 'zod';
import { routesOf } from '@platform/http';
import type { UsersService } from '../users/users-service.ts';
import type { ViewContext } from '../users/user-views.ts';
import type { SshKey } from './ssh-key.entity.ts';
import type { SshKeysService } from './ssh-keys-service.ts';
import { sshKeyView } from './ssh-keys-views.ts';

export interface SshKeyLookupRouteDeps {
  keys: SshKeysService;
  users: UsersService;
  views: ViewContext;
}

const route = routesOf<SshKeyLookupRouteDeps>('identity');

/** GitLab's `SSHKeyWithUser`: the key, and its owner as `UserPublic`. */
async function keyWithUser(key: SshKey, { users, views }: SshKeyLookupRouteDeps) {
  // The view PostgreSQL builds for the user routes, parsed to be embedded: a lookup is rare.
  const owner = JSON.parse((await users.read(key.userId, { view: 'userPublic' })).json) as { name: string };
  return { ...sshKeyView(key, owner, views), user: owner };
}

/** Administrators find any user's SSH key by id (`GET /keys/:id`) or by fingerprint (`GET /keys?fingerprint=`). */
export const sshKeyLookupRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/keys/:id',
    access: 'administrator',
    scope: 'read_api',
    // GitLab looks the id up as given: what is no id finds nothing.
    input: z.object({ id: z.string().max(255) }),
    handle: async ({ input, deps }) => keyWithUser(await deps.keys.find(/^\d{1,10}$/.test(input.id) ? Number(input.id) : 0), deps),
  }),

  route({
    method: 'GET',
    path: '/api/v4/keys',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({ fingerprint: z.string().max(1000) }),
    handle: async ({ input, deps }) => keyWithUser(await deps.keys.findByFingerprint(input.fingerprint), deps),
  }),
];
