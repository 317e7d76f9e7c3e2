import { ACCESS_LEVEL, type ProjectAccessRequirement } from '@platform/identity-client';

/**
 * GitLab's pipeline and commit status reads: anybody who sees a public or internal project (its
 * pipelines are public by default), reporters and above a private one's.
 */
export const PIPELINE_READERS: ProjectAccessRequirement = {
  minimumLevel: ACCESS_LEVEL.NO_ACCESS,
  privateMinimumLevel: ACCESS_LEVEL.REPORTER,
};
