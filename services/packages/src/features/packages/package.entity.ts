import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const PACKAGE_TYPES = ['npm', 'maven', 'generic'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

/** GitLab's package states: `hidden` (Maven's version-less metadata package) and `processing` are never listed. */
export const PACKAGE_STATUSES = ['default', 'hidden', 'processing', 'error'] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** One version of a package in a project's registry. */
export const Package = defineEntity({
  name: 'Package',
  tableName: 'packages',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    /** The project's full path when the package was published, for group lists (`project_path`). */
    projectPath: p.text(),
    /** The project's namespace and its ancestors when published, top-level first: group lists select by them. */
    namespaceIds: p.json<number[]>(),
    name: p.text(),
    /** Null for Maven's version-less metadata package. */
    version: p.text().nullable(),
    packageType: p.enum(PACKAGE_TYPES),
    status: p.enum(PACKAGE_STATUSES),
    /** The format's own description of the version: npm's package.json as published. */
    metadata: p.json<Record<string, unknown>>().nullable(),
    creatorId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Package = InferEntity<typeof Package>;

/** A file of a package, kept on disk under the service's DATA_DIR. */
export const PackageFile = defineEntity({
  name: 'PackageFile',
  tableName: 'package_files',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    packageId: p.bigint('number'),
    fileName: p.text(),
    size: p.bigint('number'),
    fileMd5: p.text(),
    fileSha1: p.text(),
    fileSha256: p.text(),
    /** Relative to the files directory. */
    storagePath: p.text(),
    createdAt: p.datetime(),
  },
});
export type PackageFile = InferEntity<typeof PackageFile>;

/** An npm dist-tag: names one version of a package in a project. */
export const PackageTag = defineEntity({
  name: 'PackageTag',
  tableName: 'package_tags',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    packageId: p.bigint('number'),
    projectId: p.bigint('number'),
    packageName: p.text(),
    name: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type PackageTag = InferEntity<typeof PackageTag>;

export const packageEntities = [Package, PackageFile, PackageTag];
