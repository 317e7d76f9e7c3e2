/** Composition root of the identity service: its features, and what each is given of the others. */
import { runService, type ServiceDefinition } from '@platform/service';
import { IDENTITY_TOPIC } from '@platform/identity-client';
import { applicationSettingsFeature, applicationSettingsSource, type ApplicationSettingsSource } from '@platform/admin-client';
import { containerRegistryTagsSource, type ContainerRegistryTags } from '@platform/packages-client';
import { FixedReviewRepositories, GrpcReviewRepositories, type RepositoryCreation } from '@platform/review-client';
import { readConfig, type IdentityConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { accessEntities, createAccessCore } from './features/access/access-core.ts';
import { createAccessRequestsFeature } from './features/access-requests/access-requests-feature.ts';
import { createAuthenticationFeature } from './features/authentication/authentication-feature.ts';
import { createDeployKeysFeature, deployKeysEntities } from './features/deploy-keys/deploy-keys-feature.ts';
import { createDeployTokensFeature, deployTokensEntities } from './features/deploy-tokens/deploy-tokens-feature.ts';
import { createCustomAttributesFeature, customAttributesEntities } from './features/custom-attributes/custom-attributes-feature.ts';
import { createGpgKeysFeature, gpgKeysEntities } from './features/gpg-keys/gpg-keys-feature.ts';
import { createGroupsFeature, groupsEntities } from './features/groups/groups-feature.ts';
import { createListCountsFeature } from './features/list-counts/list-counts-feature.ts';
import { createMembersFeature, membersEntities } from './features/members/members-feature.ts';
import { createNamespacesFeature } from './features/namespaces/namespaces-feature.ts';
import { createProjectsFeature, projectsEntities } from './features/projects/projects-feature.ts';
import { createResourceAccessTokensFeature } from './features/resource-access-tokens/resource-access-tokens-feature.ts';
import { PgResourceBotStore } from './features/resource-access-tokens/resource-bots-store.ts';
import { ResourceBots } from './features/resource-access-tokens/resource-bots.ts';
import { createSamlProvidersFeature, samlProvidersEntities } from './features/saml-providers/saml-providers-feature.ts';
import { createScimFeature, scimEntities } from './features/scim/scim-feature.ts';
import { createServerMetadataFeature } from './features/server-metadata/server-metadata-feature.ts';
import { createSshKeysFeature, sshKeysEntities } from './features/ssh-keys/ssh-keys-feature.ts';
import { createTokensFeature, tokensEntities } from './features/tokens/tokens-feature.ts';
import { createUserStatusFeature, userStatusEntities } from './features/user-status/user-status-feature.ts';
import { createUsersFeature, usersEntities } from './features/users/users-feature.ts';
import { createUserEmailsFeature, userEmailsEntities } from './features/user-emails/user-emails-feature.ts';
import { createUserMembershipsFeature } from './features/user-memberships/user-memberships-feature.ts';
import { AvatarStorage } from './features/avatars/avatar-storage.ts';
import { createUploadsFeature } from './features/uploads/uploads-feature.ts';

/**
 * `applicationSettings` replaces the admin service's settings, `containerRegistry` the packages
 * service's answers about container registry tags, `repositories` review's creation of
 * repositories (tests give fixed ones).
 */
export function identityService(
  config: IdentityConfig,
  clients: {
    applicationSettings?: ApplicationSettingsSource;
    containerRegistry?: ContainerRegistryTags;
    repositories?: RepositoryCreation;
  } = {},
): ServiceDefinition<IdentityConfig> {
  return {
    name: 'identity',
    config,
    entities: [
      ...usersEntities,
      ...tokensEntities,
      ...deployTokensEntities,
      ...deployKeysEntities,
      ...customAttributesEntities,
      ...sshKeysEntities,
      ...userEmailsEntities,
      ...gpgKeysEntities,
      ...userStatusEntities,
      ...accessEntities,
      ...groupsEntities,
      ...projectsEntities,
      ...membersEntities,
      ...samlProvidersEntities,
      ...scimEntities,
    ],
    migrations,
    publishes: [IDENTITY_TOPIC],
    features: ({ em, orm, logger }) => {
      const views = {
        externalUrl: config.EXTERNAL_URL.replace(/\/$/, ''),
        ...(config.REGISTRY_PUBLIC_HOST ? { registryHost: config.REGISTRY_PUBLIC_HOST } : {}),
      };
      const settings =
        clients.applicationSettings ??
        applicationSettingsSource({
          address: config.ADMIN_GRPC_ADDRESS,
          internalSecret: config.INTERNAL_SECRET,
          service: 'identity',
          kafkaBrokers: config.KAFKA_BROKERS,
          topicPrefix: config.KAFKA_TOPIC_PREFIX,
          logger,
        });
      const containerRegistry =
        clients.containerRegistry ??
        containerRegistryTagsSource({ address: config.PACKAGES_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      // Without review there is no repository: projects show the `default` storage.
      const repositories =
        clients.repositories ??
        (config.REVIEW_GRPC_ADDRESS
          ? new GrpcReviewRepositories({ address: config.REVIEW_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET })
          : new FixedReviewRepositories());
      const access = createAccessCore(em);
      const avatars = new AvatarStorage({ directory: config.DATA_DIR });
      const users = createUsersFeature({ em, avatars, views, settings });
      const tokens = createTokensFeature({ em, users: users.store, rootToken: config.ROOT_TOKEN, externalUrl: views.externalUrl });
      const members = createMembersFeature({ em, orm, logger, access, users: users.store, views });
      const bots = new ResourceBots({ em, bots: new PgResourceBotStore(em), users: users.store, externalUrl: views.externalUrl });
      const projects = createProjectsFeature({
        em,
        orm,
        logger,
        access,
        members: members.members,
        users: users.store,
        bots,
        avatars,
        views,
        settings,
        containerRegistry,
        repositories,
        deletionIntervalMs: config.PROJECT_DELETION_INTERVAL_MS,
      });
      const groups = createGroupsFeature({
        em,
        access,
        members: members.members,
        projects,
        users: users.store,
        bots,
        avatars,
        views,
        settings,
        containerRegistry,
      });
      const scim = createScimFeature({ em, logger, access: access.policy, groups: groups.store, members, users: users.store });
      return [
        users,
        tokens,
        createServerMetadataFeature({ revision: config.PLATFORM_REVISION }),
        createListCountsFeature({ em }),
        createCustomAttributesFeature({ em, access: access.policy, userAttributes: users.customAttributes }),
        createSshKeysFeature({ em, users: users.users, views, settings }),
        createGpgKeysFeature({ em, users: users.users }),
        createUserEmailsFeature({ em, users: users.users }),
        createUserMembershipsFeature({ em, users: users.store }),
        createUserStatusFeature({ em, users: users.users }),
        createSamlProvidersFeature({ em, groups: scim.singleSignOnGroups }),
        scim,
        groups,
        projects,
        members,
        createAccessRequestsFeature({ em, access: access.policy, members, users: users.store, views }),
        createDeployTokensFeature({ em, orm, access: access.policy, logger }),
        createDeployKeysFeature({ em, access: access.policy }),
        createResourceAccessTokensFeature({
          em,
          tokens: tokens.tokens,
          users: users.store,
          members: members.members,
          memberStore: members.store,
          access: access.policy,
          externalUrl: views.externalUrl,
        }),
        createNamespacesFeature({ em, orm, logger, access, groups: groups.store, projects: projects.store, views }),
        createAuthenticationFeature({
          orm,
          logger,
          tokens: tokens.tokens,
          users: users.store,
          userReads: users.readModel,
          administrators: users.administrators,
          views,
        }),
        createUploadsFeature({ orm, avatars, users: users.store, access: access.policy, logger }),
        applicationSettingsFeature(settings),
        {
          stop: () => {
            containerRegistry.close();
            repositories.close();
          },
        },
      ];
    },
  };
}

if (import.meta.main) await runService(identityService(readConfig()));
