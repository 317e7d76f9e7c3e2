export { identityClientConfig, GrpcIdentityAccess, FakeIdentityAccess } from './identity-access.ts';
export type { IdentityAccess, AccessRequirement, AccessResource } from './identity-access.ts';
