import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A tag name or wildcard (`v*`) of a project: its tags are created only by the roles it allows, and never moved. */
export const ProtectedTag = defineEntity({
  name: 'ProtectedTag',
  tableName: 'protected_tags',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    /** An exact tag name, or a pattern where `*` matches anything. */
    name: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ProtectedTag = InferEntity<typeof ProtectedTag>;

/** One role allowed to create the tags a protected tag names. */
export const ProtectedTagCreateAccessLevel = defineEntity({
  name: 'ProtectedTagCreateAccessLevel',
  tableName: 'protected_tag_create_access_levels',
  properties: {
    id: p.bigint('number').primary(),
    protectedTagId: p.bigint('number'),
    /** 0 no one, 30 developers and maintainers, 40 maintainers. */
    accessLevel: p.integer(),
  },
});
export type ProtectedTagCreateAccessLevel = InferEntity<typeof ProtectedTagCreateAccessLevel>;
