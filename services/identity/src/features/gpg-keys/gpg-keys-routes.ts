import { userKeyRoutes } from '../user-keys/user-key-route-table.ts';
import type { GpgKey } from './gpg-key.entity.ts';
import { addGpgKeyParams } from './gpg-keys.schemas.ts';

/** GitLab's GPG key endpoints, for the current user (`/user/gpg_keys`) and any user (`/users/:user_id/gpg_keys`). */
export const gpgKeysRoutes = userKeyRoutes<GpgKey, typeof addGpgKeyParams>({
  paths: {
    own: '/api/v4/user/gpg_keys',
    ownKey: '/api/v4/user/gpg_keys/:key_id',
    user: '/api/v4/users/:user_id/gpg_keys',
    userKey: '/api/v4/users/:user_id/gpg_keys/:key_id',
  },
  newKey: addGpgKeyParams,
});
