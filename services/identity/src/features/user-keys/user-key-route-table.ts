import { z } from 'zod';
import type { AuthenticatedCaller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { params, routesOf, type RouteDefinition } from '@platform/http';
import type { User } from '../users/user.entity.ts';
import type { UsersService } from '../users/users-service.ts';

/** A kind of key users register (SSH, GPG), as its routes use it; the routes resolve the owner and check who may act. */
export interface UserKeys<Key, NewKey> {
  list(owner: User, page: PageWindow): Promise<Page<Key>>;
  get(owner: User, keyId: number): Promise<Key>;
  add(actor: AuthenticatedCaller, owner: User, input: NewKey): Promise<Key>;
  remove(actor: AuthenticatedCaller, owner: User, keyId: number): Promise<void>;
}

export interface UserKeyRouteDeps<Key, NewKey> {
  keys: UserKeys<Key, NewKey>;
  users: UsersService;
  view(key: Key, owner: User): unknown;
}

const ownKeysParams = z.object({});
const ownKeyParams = z.object({ key_id: params.integer() });
const userKeysParams = z.object({ user_id: z.string().max(255) });
const userKeyParams = userKeysParams.extend({ key_id: params.integer() });

/**
 * GitLab's endpoints of one kind of user key, the same for each kind: the current user's keys
 * (`/user/keys`), and any user's (`/users/:user_id/keys`), which administrators add and remove.
 * Each kind names its paths in full.
 */
export function userKeyRoutes<Key, NewKeySchema extends z.ZodObject>(spec: {
  paths: { own: string; ownKey: string; user: string; userKey: string };
  /** The fields of a new key. */
  newKey: NewKeySchema;
}): RouteDefinition<UserKeyRouteDeps<Key, z.output<NewKeySchema>>>[] {
  const { paths, newKey } = spec;
  // zod's types cannot follow `extend` on a schema only known to be some object.
  const newUserKey = newKey.extend(userKeysParams.shape) as unknown as z.ZodType<z.output<NewKeySchema> & z.output<typeof userKeysParams>>;
  type Deps = UserKeyRouteDeps<Key, z.output<NewKeySchema>>;
  const route = routesOf<Deps>('identity');
  const listed = async (deps: Deps, owner: User, window: PageWindow) => {
    const page = await deps.keys.list(owner, window);
    return { ...page, items: page.items.map((key) => deps.view(key, owner)) };
  };
  const shown = async (deps: Deps, owner: User, keyId: number) => deps.view(await deps.keys.get(owner, keyId), owner);
  const added = async (deps: Deps, caller: AuthenticatedCaller, owner: User, input: z.output<NewKeySchema>) =>
    deps.view(await deps.keys.add(caller, owner, input), owner);
  return [
    route.list({
      path: paths.own,
      access: 'user',
      scope: 'read_user',
      input: ownKeysParams,
      handle: async ({ caller, window, deps }) => listed(deps, await deps.users.find(caller.userId), window),
    }),

    route({
      method: 'GET',
      path: paths.ownKey,
      access: 'user',
      scope: 'read_user',
      input: ownKeyParams,
      handle: async ({ caller, input, deps }) => shown(deps, await deps.users.find(caller.userId), input.key_id),
    }),

    route({
      method: 'POST',
      path: paths.own,
      access: 'user',
      scope: 'api',
      input: newKey,
      status: 201,
      handle: async ({ caller, input, deps }) => added(deps, caller, await deps.users.find(caller.userId), input),
    }),

    route({
      method: 'DELETE',
      path: paths.ownKey,
      access: 'user',
      scope: 'api',
      input: ownKeyParams,
      status: 204,
      handle: async ({ caller, input, deps }) => {
        await deps.keys.remove(caller, await deps.users.find(caller.userId), input.key_id);
      },
    }),

    route.list({
      path: paths.user,
      access: 'anonymous',
      scope: 'read_user',
      input: userKeysParams,
      handle: async ({ input, window, deps }) => listed(deps, await deps.users.find(input.user_id), window),
    }),

    route({
      method: 'GET',
      path: paths.userKey,
      access: 'anonymous',
      scope: 'read_user',
      input: userKeyParams,
      handle: async ({ input, deps }) => shown(deps, await deps.users.find(input.user_id), input.key_id),
    }),

    route({
      method: 'POST',
      path: paths.user,
      access: 'administrator',
      scope: 'api',
      input: newUserKey,
      status: 201,
      handle: async ({ caller, input, deps }) => added(deps, caller, await deps.users.find(input.user_id), input),
    }),

    route({
      method: 'DELETE',
      path: paths.userKey,
      access: 'administrator',
      scope: 'api',
      input: userKeyParams,
      status: 204,
      handle: async ({ caller, input, deps }) => {
        await deps.keys.remove(caller, await deps.users.find(input.user_id), input.key_id);
      },
    }),
  ];
}
