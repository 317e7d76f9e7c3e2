import { userKeyRoutes } from '../user-keys/user-key-route-table.ts';
import type { SshKey } from './ssh-key.entity.ts';
import { addSshKeyParams } from './ssh-keys.schemas.ts';

/** GitLab's SSH key endpoints, for the current user (`/user/keys`) and for any user (`/users/:user_id/keys`). */
export const sshKeysRoutes = userKeyRoutes<SshKey, typeof addSshKeyParams>({
  paths: {
    own: '/api/v4/user/keys',
    ownKey: '/api/v4/user/keys/:key_id',
    user: '/api/v4/users/:user_id/keys',
    userKey: '/api/v4/users/:user_id/keys/:key_id',
  },
  newKey: addSshKeyParams,
});
