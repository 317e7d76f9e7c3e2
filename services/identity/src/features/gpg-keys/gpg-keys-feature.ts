import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { UsersService } from '../users/users-service.ts';
import { gpgKeyView } from './gpg-keys-views.ts';
import { GpgKey } from './gpg-key.entity.ts';
import { PgGpgKeyStore } from './gpg-keys-store.ts';
import { GpgKeysService } from './gpg-keys-service.ts';
import { gpgKeysRoutes } from './gpg-keys-routes.ts';

export const gpgKeysEntities = [GpgKey];

/** Users' GPG keys. */
export function createGpgKeysFeature(deps: { em: EntityManager; users: UsersService }): Feature {
  const gpgKeys = new GpgKeysService({ em: deps.em, keys: new PgGpgKeyStore(deps.em) });
  return { routes: [createRouter(gpgKeysRoutes, { keys: gpgKeys, users: deps.users, view: gpgKeyView })] };
}
