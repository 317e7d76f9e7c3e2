import type { GpgKey } from './gpg-key.entity.ts';

export function gpgKeyView(key: GpgKey) {
  return { id: key.id, key: key.key, created_at: key.createdAt };
}
