/**
 * Every event the packages service publishes, declared once: it records them and consumers
 * (audit, ...) decode them through these definitions. Their data are the messages of
 * `proto/packages/v1/events.proto`.
 */
import { defineEvent } from '@platform/events';
import { ContainerTagDeleted, ContainerTagPushed, PackageDeleted, PackagePublished } from '@platform/proto/packages/v1/events';

/** The packages service's events travel on one topic, keyed by the project id. */
export const PACKAGES_TOPIC = 'packages.events';

export const packagesEvents = {
  packagePublished: defineEvent('packages.package.published', PackagePublished, { topic: PACKAGES_TOPIC }),
  packageDeleted: defineEvent('packages.package.deleted', PackageDeleted, { topic: PACKAGES_TOPIC }),
  containerTagPushed: defineEvent('packages.container_tag.pushed', ContainerTagPushed, { topic: PACKAGES_TOPIC }),
  containerTagDeleted: defineEvent('packages.container_tag.deleted', ContainerTagDeleted, { topic: PACKAGES_TOPIC }),
};
