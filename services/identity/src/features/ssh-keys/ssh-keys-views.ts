import type { User } from '../users/user.entity.ts';
import type { ViewContext } from '../users/user-views.ts';
import type { SshKey } from './ssh-key.entity.ts';
import { publishableKey } from './ssh-key-parsing.ts';

export function sshKeyView(key: SshKey, owner: Pick<User, 'name'>, context: ViewContext) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.createdAt,
    expires_at: key.expiresAt ?? null,
    key: publishableKey(key.key, { ownerName: owner.name, host: new URL(context.externalUrl).host }),
    usage_type: key.usageType,
  };
}
