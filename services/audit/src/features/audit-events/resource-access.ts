export type { IdentityAccess as ResourceAccess, AccessResource as AuditedResource } from '@platform/identity-client';
