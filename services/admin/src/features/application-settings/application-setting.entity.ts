import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The instance's one application settings record (id 1). `settings` holds what administrators
 * wrote, by setting name; a setting never written answers its default.
 */
export const ApplicationSetting = defineEntity({
  name: 'ApplicationSetting',
  tableName: 'application_settings',
  properties: {
    id: p.integer().primary().autoincrement(false),
    settings: p.json<Record<string, unknown>>(),
    /** Grows with every change, so readers elsewhere keep the newest settings they were told of. */
    revision: p.bigint('number'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ApplicationSetting = InferEntity<typeof ApplicationSetting>;
