import { defineEntity, p } from '@mikro-orm/core';

/** What custom attributes can be attached to, with the table that holds each one's. */
const OWNERS = {
  user: { name: 'UserCustomAttribute', tableName: 'user_custom_attributes', ownerColumn: 'user_id' },
  group: { name: 'GroupCustomAttribute', tableName: 'group_custom_attributes', ownerColumn: 'group_id' },
  project: { name: 'ProjectCustomAttribute', tableName: 'project_custom_attributes', ownerColumn: 'project_id' },
} as const;

export type CustomAttributeOwnerKind = keyof typeof OWNERS;

function customAttributeEntity(owner: (typeof OWNERS)[CustomAttributeOwnerKind]) {
  return defineEntity({
    name: owner.name,
    tableName: owner.tableName,
    properties: {
      id: p.integer().primary().autoincrement(),
      ownerId: p.integer().fieldName(owner.ownerColumn),
      key: p.text(),
      value: p.text(),
      createdAt: p.datetime().onCreate(() => new Date()),
      updatedAt: p
        .datetime()
        .onCreate(() => new Date())
        .onUpdate(() => new Date()),
    },
  });
}

/**
 * A key/value pair an administrator attaches to a user, group or project, e.g. to tag them for
 * an integration. One entity per owner kind, each with its own table.
 */
export const customAttributeEntities = {
  user: customAttributeEntity(OWNERS.user),
  group: customAttributeEntity(OWNERS.group),
  project: customAttributeEntity(OWNERS.project),
};

export interface CustomAttribute {
  id: number;
  ownerId: number;
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

export function customAttributeTable(kind: CustomAttributeOwnerKind): { tableName: string; ownerColumn: string } {
  return OWNERS[kind];
}
