import type { PackageDeleted, PackagePublished } from '@platform/proto/packages/v1/events';
import type { Package } from './package.entity.ts';

/** What both of the packages service's events (declared in `@platform/packages-client`) say about a package. */
export const packageEventData = (item: Package): PackagePublished & PackageDeleted => ({
  projectId: item.projectId,
  packageId: item.id,
  name: item.name,
  version: item.version ?? '',
  packageType: item.packageType,
  projectPath: item.projectPath,
});
