import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const GpgKey = defineEntity({
  name: 'GpgKey',
  tableName: 'gpg_keys',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    /** The ASCII-armored public key, as the user gave it. */
    key: p.text(),
    /** Key id of the primary key: 16 upper-case hex digits, as GitLab shows it. */
    primaryKeyid: p.text(),
    fingerprint: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type GpgKey = InferEntity<typeof GpgKey>;
