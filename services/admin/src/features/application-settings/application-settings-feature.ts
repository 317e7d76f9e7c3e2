import type { EntityManager, Orm } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import { ApplicationSetting } from './application-setting.entity.ts';
import { applicationSettingsGrpc } from './application-settings-grpc.ts';
import { applicationSettingsRoutes } from './application-settings-routes.ts';
import { ApplicationSettingsService } from './application-settings-service.ts';
import { PgApplicationSettingsStore } from './application-settings-store.ts';
import type { ValueCipher } from '../ci-variables/value-cipher.ts';
import { ConfiguredRepositoryStorages } from './repository-storages.ts';
import type { RepositoryStorageNames } from '@platform/review-client';

export const applicationSettingsEntities = [ApplicationSetting];

/** The instance's application settings: the REST API for administrators, the gRPC read for other services. */
export function createApplicationSettingsFeature(deps: {
  orm: Orm;
  em: EntityManager;
  logger: Logger;
  cipher: ValueCipher;
  /** Review's repository storages, the only ones the storage settings may name. */
  repositoryStorages: RepositoryStorageNames;
}): Feature {
  const storages = new ConfiguredRepositoryStorages({ source: deps.repositoryStorages });
  const settings = new ApplicationSettingsService({
    em: deps.em,
    store: new PgApplicationSettingsStore(deps.em),
    cipher: deps.cipher,
    storages,
    logger: deps.logger,
  });
  return {
    routes: [createRouter(applicationSettingsRoutes, { settings })],
    rpcs: [applicationSettingsGrpc({ orm: deps.orm, settings, logger: deps.logger })],
    stop: async () => storages.close(),
  };
}
