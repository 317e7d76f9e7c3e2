/** Every event the packages service publishes, declared once; consumers decode them through these definitions. */
import { defineEvent } from '@platform/events';
import { PackageDeleted, PackagePublished } from '@platform/proto/packages/v1/events';
import type { Package } from './package.entity.ts';

/** The packages service's events travel on one topic, keyed by the project id. */
export const PACKAGES_TOPIC = 'packages.events';

export const packagesEvents = {
  packagePublished: defineEvent('packages.package.published', PackagePublished, { topic: PACKAGES_TOPIC }),
  packageDeleted: defineEvent('packages.package.deleted', PackageDeleted, { topic: PACKAGES_TOPIC }),
};

/** What both events say about a package. */
export const packageEventData = (item: Package): PackagePublished & PackageDeleted => ({
  projectId: item.projectId,
  packageId: item.id,
  name: item.name,
  version: item.version ?? '',
  packageType: item.packageType,
  projectPath: item.projectPath,
});
