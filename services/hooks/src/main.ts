/** Composition root of the hooks service: project, group and system webhooks, fed by the domain events. */
import { applicationSettingsFeature, applicationSettingsSource, type ApplicationSettingsSource } from '@platform/admin-client';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { GrpcProjectCommits } from '@platform/review-client';
import { runService, type ServiceDefinition } from '@platform/service';
import { readConfig, type HooksConfig } from './config.ts';
import { coreEntities, createCoreFeature } from './features/core/core-feature.ts';
import { triggersEntities } from './features/triggers/issuable-copy.entity.ts';
import { createTriggersFeature, type CommitLookup } from './features/triggers/triggers-feature.ts';
import { GrpcProjectDirectory, type ProjectDirectory } from './features/triggers/project-directory.ts';
import { createWebHooksFeature } from './features/web-hooks/web-hooks-feature.ts';
import { migrations } from './migrations/index.ts';

/** Tests replace the clients of identity, review and admin with fakes. */
export function hooksService(
  config: HooksConfig,
  clients: {
    identityAccess?: IdentityAccess;
    directory?: ProjectDirectory;
    commits?: CommitLookup;
    settings?: ApplicationSettingsSource;
  } = {},
): ServiceDefinition<HooksConfig> {
  return {
    name: 'hooks',
    config,
    entities: [...coreEntities, ...triggersEntities],
    migrations,
    features: ({ em, orm, logger }) => {
      const identity = { address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET };
      const access = clients.identityAccess ?? new GrpcIdentityAccess(identity);
      const directory = clients.directory ?? new GrpcProjectDirectory(identity);
      const commits =
        clients.commits ?? new GrpcProjectCommits({ address: config.REVIEW_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      const settings =
        clients.settings ??
        applicationSettingsSource({
          address: config.ADMIN_GRPC_ADDRESS,
          internalSecret: config.INTERNAL_SECRET,
          service: 'hooks',
          kafkaBrokers: config.KAFKA_BROKERS,
          topicPrefix: config.KAFKA_TOPIC_PREFIX,
          logger,
        });
      const core = createCoreFeature({
        orm,
        em,
        settings,
        logger,
        delivery: { instanceUrl: config.EXTERNAL_URL, gitlabVersion: config.GITLAB_VERSION, timeoutMs: config.WEBHOOK_TIMEOUT_MS },
      });
      const triggers = createTriggersFeature({ em, store: core.store, directory, commits });
      return [
        core,
        triggers,
        createWebHooksFeature({ em, access, store: core.store, deliveries: core.deliveries, settings, samples: triggers.samples }),
        applicationSettingsFeature(settings),
        identityAccessFeature(access),
        {
          stop: () => {
            directory.close();
            commits.close();
          },
        },
      ];
    },
  };
}

if (import.meta.main) await runService(hooksService(readConfig()));
