import type { PackageFile } from '../packages/package.entity.ts';

/** The uploaded package file as GitLab answers `select=package_file` (the record's attributes). */
export const genericPackageFileView = (file: PackageFile) => ({
  id: file.id,
  package_id: file.packageId,
  created_at: file.createdAt.toISOString(),
  updated_at: file.createdAt.toISOString(),
  size: file.size,
  file_store: 1,
  file_md5: file.fileMd5,
  file_sha1: file.fileSha1,
  file_name: file.fileName,
  file_sha256: file.fileSha256,
});
