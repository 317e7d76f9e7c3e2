import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A group's SAML single sign-on configuration: at most one per group. */
export const SamlProvider = defineEntity({
  name: 'SamlProvider',
  tableName: 'saml_providers',
  properties: {
    id: p.integer().primary().autoincrement(),
    groupId: p.integer(),
    enabled: p.boolean(),
    ssoUrl: p.text(),
    certificateFingerprint: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type SamlProvider = InferEntity<typeof SamlProvider>;
