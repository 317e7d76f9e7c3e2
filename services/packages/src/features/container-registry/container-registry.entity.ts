import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A project's image repository: the project's own (`group/app`, name empty) or a named one (`group/app/web`). */
export const ContainerRepository = defineEntity({
  name: 'ContainerRepository',
  tableName: 'container_repositories',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    projectPath: p.text(),
    /** The project's namespace and its ancestors, top-level first: group lists select by them. */
    namespaceIds: p.json<number[]>(),
    name: p.text(),
    /** The registry's name for it. */
    path: p.text().unique(),
    /** `delete_scheduled` once its deletion was asked for; null otherwise (GitLab's `status`). */
    status: p.enum(['delete_scheduled'] as const).nullable(),
    /** When the last accepted bulk tag deletion was asked for: one an hour. */
    cleanupRequestedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type ContainerRepository = InferEntity<typeof ContainerRepository>;

/** A tag, as the registry's notifications report it, with what its manifest and image config say. */
export const ContainerTag = defineEntity({
  name: 'ContainerTag',
  tableName: 'container_tags',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    repositoryId: p.bigint('number'),
    name: p.text(),
    /** The manifest's digest. */
    digest: p.text(),
    /** The image config's digest without `sha256:`; null for a manifest list. */
    revision: p.text().nullable(),
    /** The sum of the layers' sizes. */
    totalSize: p.bigint('number').nullable(),
    /** The image config's `created`. */
    imageCreatedAt: p.datetime().nullable(),
    pushedAt: p.datetime(),
  },
});
export type ContainerTag = InferEntity<typeof ContainerTag>;

export const containerRegistryEntities = [ContainerRepository, ContainerTag];
