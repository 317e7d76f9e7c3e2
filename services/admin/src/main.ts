/** Composition root of the admin service: application settings and instance CI/CD variables. */
import { runService, type ServiceDefinition } from '@platform/service';
import { ADMIN_TOPIC } from '@platform/admin-client';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { readConfig, type AdminConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import {
  applicationSettingsEntities,
  createApplicationSettingsFeature,
} from './features/application-settings/application-settings-feature.ts';

/** `identityAccess` replaces the gRPC client to identity (tests give a fake). */
export function adminService(config: AdminConfig, clients: { identityAccess?: IdentityAccess } = {}): ServiceDefinition<AdminConfig> {
  return {
    name: 'admin',
    config,
    entities: [...applicationSettingsEntities],
    migrations,
    publishes: [ADMIN_TOPIC],
    features: ({ em, logger }) => {
      const access =
        clients.identityAccess ?? new GrpcIdentityAccess({ address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      return [createApplicationSettingsFeature({ em, logger }), identityAccessFeature(access)];
    },
  };
}

if (import.meta.main) await runService(adminService(readConfig()));
