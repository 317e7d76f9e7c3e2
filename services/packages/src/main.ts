/** Composition root of the packages service: the npm and Maven registries, generic packages and the Packages API. */
import { runService, type ServiceDefinition } from '@platform/service';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { readConfig, type PackagesConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { packageEntities } from './features/packages/package.entity.ts';
import { createPackagesCore, createPackagesFeature } from './features/packages/packages-feature.ts';
import { PACKAGES_TOPIC } from '@platform/packages-client';
import { createNpmFeature } from './features/npm/npm-feature.ts';
import { createMavenFeature } from './features/maven/maven-feature.ts';
import { createGenericFeature } from './features/generic/generic-feature.ts';
import { DEFAULT_BODY_LIMITS } from '@platform/http';
import { containerRegistryEntities, createContainerRegistryFeature } from './features/container-registry/container-registry-feature.ts';

/** `identityAccess` replaces the gRPC client to identity (tests give a fake). */
export function packagesService(
  config: PackagesConfig,
  clients: { identityAccess?: IdentityAccess } = {},
): ServiceDefinition<PackagesConfig> {
  return {
    name: 'packages',
    config,
    entities: [...packageEntities, ...containerRegistryEntities],
    migrations,
    publishes: [PACKAGES_TOPIC],
    // `npm publish` sends its tarball base64-encoded inside a JSON body: a third larger, plus the manifest.
    bodyLimits: { ...DEFAULT_BODY_LIMITS, bodyBytes: Math.ceil((config.MAX_PACKAGE_FILE_BYTES * 4) / 3) + 1024 * 1024 },
    features: ({ em, orm, logger }) => {
      const access =
        clients.identityAccess ?? new GrpcIdentityAccess({ address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      const core = createPackagesCore({ em, access, logger, dataDir: config.DATA_DIR });
      return [
        createPackagesFeature({ core, access }),
        createNpmFeature({ core, access, maxFileBytes: config.MAX_PACKAGE_FILE_BYTES }),
        createMavenFeature({ core, access, maxFileBytes: config.MAX_PACKAGE_FILE_BYTES }),
        createGenericFeature({ core, access, maxFileBytes: config.MAX_PACKAGE_FILE_BYTES }),
        createContainerRegistryFeature({ orm, em, access, logger, config }),
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(packagesService(readConfig()));
