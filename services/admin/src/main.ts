/** Composition root of the admin service: application settings and CI/CD variables (instance, project and group). */
import { runService, type ServiceDefinition } from '@platform/service';
import { ADMIN_TOPIC } from '@platform/admin-client';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { FixedReviewRepositories, GrpcReviewRepositories, type RepositoryStorageNames } from '@platform/review-client';
import { readConfig, type AdminConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import {
  applicationSettingsEntities,
  createApplicationSettingsFeature,
} from './features/application-settings/application-settings-feature.ts';
import { ciVariablesEntities, createCiVariablesFeature } from './features/ci-variables/ci-variables-feature.ts';
import { parseCipherKey, ValueCipher } from './features/ci-variables/value-cipher.ts';

/** `identityAccess` and `repositoryStorages` replace the gRPC clients to identity and review (tests give fakes). */
export function adminService(
  config: AdminConfig,
  clients: { identityAccess?: IdentityAccess; repositoryStorages?: RepositoryStorageNames } = {},
): ServiceDefinition<AdminConfig> {
  return {
    name: 'admin',
    config,
    entities: [...applicationSettingsEntities, ...ciVariablesEntities],
    migrations,
    publishes: [ADMIN_TOPIC],
    features: ({ em, orm, logger }) => {
      const access =
        clients.identityAccess ?? new GrpcIdentityAccess({ address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      // The configuration refuses a key that does not parse.
      const cipher = new ValueCipher(parseCipherKey(config.CI_VARIABLES_KEY) ?? Buffer.alloc(0));
      // Without review there are no repositories, and `default` is the only storage the settings may name.
      const repositoryStorages =
        clients.repositoryStorages ??
        (config.REVIEW_GRPC_ADDRESS
          ? new GrpcReviewRepositories({ address: config.REVIEW_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET })
          : new FixedReviewRepositories());
      return [
        createApplicationSettingsFeature({ orm, em, logger, cipher, repositoryStorages }),
        createCiVariablesFeature({ em, cipher, limit: config.MAX_CI_VARIABLES, access }),
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(adminService(readConfig()));
