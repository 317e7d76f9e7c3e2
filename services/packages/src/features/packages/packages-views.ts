import type { Package, PackageFile, PackageTag } from './package.entity.ts';

/** A package's dist-tags, as GitLab shows them. */
const tagView = (tag: PackageTag) => ({
  id: tag.id,
  package_id: tag.packageId,
  name: tag.name,
  created_at: tag.createdAt.toISOString(),
  updated_at: tag.updatedAt.toISOString(),
});

/**
 * GitLab's package entity. `pipelines` is empty: the platform runs no pipelines, and none is
 * invented; `delete_api_path` appears only for callers who may delete the package.
 */
export function packageView(
  item: Package,
  options: { apiBaseUrl: string; canDestroy: boolean; tags: PackageTag[]; inGroup?: boolean },
): Record<string, unknown> {
  return {
    id: item.id,
    name: item.name,
    version: item.version ?? '',
    package_type: item.packageType,
    status: item.status,
    _links: {
      web_path: `/${item.projectPath}/-/packages/${item.id}`,
      ...(options.canDestroy ? { delete_api_path: `${options.apiBaseUrl}/projects/${item.projectId}/packages/${item.id}` } : {}),
    },
    created_at: item.createdAt.toISOString(),
    last_downloaded_at: null,
    ...(options.inGroup ? { project_id: item.projectId, project_path: item.projectPath } : {}),
    tags: options.tags.map(tagView),
    pipelines: [],
  };
}

/** One of the other versions of a package, in the single package's `versions`. */
export const packageVersionView = (item: Package, tags: PackageTag[]) => ({
  id: item.id,
  version: item.version ?? '',
  created_at: item.createdAt.toISOString(),
  tags: tags.map(tagView),
  pipelines: [],
});

export const packageFileView = (file: PackageFile) => ({
  id: file.id,
  package_id: file.packageId,
  created_at: file.createdAt.toISOString(),
  file_name: file.fileName,
  size: file.size,
  file_md5: file.fileMd5,
  file_sha1: file.fileSha1,
  file_sha256: file.fileSha256,
  pipelines: [],
});
