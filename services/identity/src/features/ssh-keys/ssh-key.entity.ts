import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const SSH_KEY_USAGE_TYPES = ['auth', 'signing', 'auth_and_signing'] as const;

export const SshKey = defineEntity({
  name: 'SshKey',
  tableName: 'ssh_keys',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    title: p.text(),
    /** The key in OpenSSH's one-line form, as the user gave it (comment included). */
    key: p.text(),
    fingerprintMd5: p.text(),
    fingerprintSha256: p.text(),
    usageType: p.enum(SSH_KEY_USAGE_TYPES).default('auth_and_signing'),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type SshKey = InferEntity<typeof SshKey>;
