export { identityClientConfig, GrpcIdentityAccess, FakeIdentityAccess, identityAccessFeature } from './identity-access.ts';
export type {
  IdentityAccess,
  AccessRequirement,
  AccessibleResource,
  AccessResource,
  ProjectAccess,
  ProjectVisibility,
  MergeMethod,
} from './identity-access.ts';
export { ACCESS_LEVEL } from './access-level.ts';
export { hasProjectAccess, requireProjectAccess } from './project-access.ts';
export type { ProjectAccessRequirement } from './project-access.ts';
export { identityEvents, IDENTITY_TOPIC } from './identity-events.ts';
