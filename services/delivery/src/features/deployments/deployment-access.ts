import { ACCESS_LEVEL, type ProjectAccessRequirement } from '@platform/identity-client';

/**
 * GitLab's deployment and environment permissions: anybody who sees a public or internal project
 * reads them, reporters and above a private one's; developers create, change, stop and delete.
 */
export const DEPLOYMENT_READERS: ProjectAccessRequirement = {
  minimumLevel: ACCESS_LEVEL.NO_ACCESS,
  privateMinimumLevel: ACCESS_LEVEL.REPORTER,
};
export const DEPLOYMENT_WRITERS: ProjectAccessRequirement = { minimumLevel: ACCESS_LEVEL.DEVELOPER };
