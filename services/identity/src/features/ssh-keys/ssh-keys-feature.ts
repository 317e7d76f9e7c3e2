import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { UsersService } from '../users/users-service.ts';
import type { ViewContext } from '../users/user-views.ts';
import { SshKey } from './ssh-key.entity.ts';
import { PgSshKeyStore } from './ssh-keys-store.ts';
import { SshKeysService } from './ssh-keys-service.ts';
import { sshKeysRoutes } from './ssh-keys-routes.ts';
import { sshKeyLookupRoutes } from './ssh-key-lookup-routes.ts';
import { sshKeyView } from './ssh-keys-views.ts';

export const sshKeysEntities = [SshKey];

/** Users' SSH keys. */
export function createSshKeysFeature(deps: {
  em: EntityManager;
  users: UsersService;
  views: ViewContext;
  settings: ApplicationSettingsSource;
}): Feature {
  const sshKeys = new SshKeysService({ em: deps.em, keys: new PgSshKeyStore(deps.em), settings: deps.settings });
  return {
    routes: [
      createRouter(sshKeysRoutes, { keys: sshKeys, users: deps.users, view: (key, owner) => sshKeyView(key, owner, deps.views) }),
      createRouter(sshKeyLookupRoutes, { keys: sshKeys, users: deps.users, views: deps.views }),
    ],
  };
}
