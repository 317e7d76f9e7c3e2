/** Composition root of the identity service: the only place that wires stores, services and servers. */
import { createRouter } from '@platform/http';
import { runService, type ServiceDefinition } from '@platform/service';
import { readConfig, type IdentityConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { identityGrpc } from './features/authentication/identity-grpc.ts';
import { PersonalAccessToken } from './features/tokens/personal-access-token.entity.ts';
import { PgTokenStore } from './features/tokens/tokens-store.ts';
import { TokensService } from './features/tokens/tokens-service.ts';
import { tokensRoutes } from './features/tokens/tokens-routes.ts';
import { platformVersion } from './features/server-metadata/platform-release.ts';
import { serverMetadataRoutes } from './features/server-metadata/server-metadata-routes.ts';
import { Identity, User } from './features/users/user.entity.ts';
import { PgUserStore } from './features/users/users-store.ts';
import { UsersService } from './features/users/users-service.ts';
import { usersRoutes } from './features/users/users-routes.ts';
import { IDENTITY_TOPIC } from '@platform/identity-client';
import { customAttributeEntities } from './features/custom-attributes/custom-attribute.entity.ts';
import { PgCustomAttributeStore } from './features/custom-attributes/custom-attributes-store.ts';
import { CustomAttributesService } from './features/custom-attributes/custom-attributes-service.ts';
import { customAttributesRoutes } from './features/custom-attributes/custom-attributes-routes.ts';
import { SshKey } from './features/ssh-keys/ssh-key.entity.ts';
import { PgSshKeyStore } from './features/ssh-keys/ssh-keys-store.ts';
import { SshKeysService } from './features/ssh-keys/ssh-keys-service.ts';
import { sshKeysRoutes } from './features/ssh-keys/ssh-keys-routes.ts';
import { GpgKey } from './features/gpg-keys/gpg-key.entity.ts';
import { PgGpgKeyStore } from './features/gpg-keys/gpg-keys-store.ts';
import { GpgKeysService } from './features/gpg-keys/gpg-keys-service.ts';
import { gpgKeysRoutes } from './features/gpg-keys/gpg-keys-routes.ts';
import { UserStatus } from './features/user-status/user-status.entity.ts';
import { PgUserStatusStore } from './features/user-status/user-status-store.ts';
import { UserStatusService } from './features/user-status/user-status-service.ts';
import { userStatusRoutes } from './features/user-status/user-status-routes.ts';
import { Namespace } from './features/namespaces/namespace.entity.ts';
import { PgNamespaceStore } from './features/namespaces/namespaces-store.ts';
import { namespacesGrpc } from './features/namespaces/namespaces-grpc.ts';
import { projectsGrpc } from './features/projects/projects-grpc.ts';
import { namespacesRoutes } from './features/namespaces/namespaces-routes.ts';
import { GroupGroupLink } from './features/groups/group.entity.ts';
import { PgGroupStore } from './features/groups/groups-store.ts';
import { Project, ProjectGroupLink, ProjectStar } from './features/projects/project.entity.ts';
import { PgProjectStore } from './features/projects/projects-store.ts';
import { Member } from './features/members/member.entity.ts';
import { PgMemberStore } from './features/members/members-store.ts';
import { AccessPolicy } from './features/access/access-policy.ts';
import { MembersService } from './features/members/members-service.ts';
import { membersRoutes } from './features/members/members-routes.ts';
import { GroupsService } from './features/groups/groups-service.ts';
import { groupsRoutes } from './features/groups/groups-routes.ts';
import { ProjectsService } from './features/projects/projects-service.ts';
import { projectsRoutes } from './features/projects/projects-routes.ts';
import { AccessRequestsService } from './features/access-requests/access-requests-service.ts';
import { accessRequestsRoutes } from './features/access-requests/access-requests-routes.ts';
import { SamlProvider } from './features/saml-providers/saml-provider.entity.ts';
import { PgSamlProviderStore } from './features/saml-providers/saml-providers-store.ts';
import { SamlProvidersService } from './features/saml-providers/saml-providers-service.ts';
import { samlProvidersRoutes } from './features/saml-providers/saml-providers-routes.ts';
import { ScimIdentity, ScimToken } from './features/scim/scim.entity.ts';
import { PgScimStore } from './features/scim/scim-store.ts';
import { SingleSignOnGroups } from './features/scim/scim-groups.ts';
import { ScimProvisionedUsers } from './features/scim/scim-users.ts';
import { ScimService } from './features/scim/scim-service.ts';
import { ScimTokensService } from './features/scim/scim-tokens-service.ts';
import { scimRoutes } from './features/scim/scim-routes.ts';
import { scimEndpointNotFound, scimErrorMiddleware } from './features/scim/scim-errors.ts';
import { ResourceCustomAttributes } from './features/custom-attributes/resource-custom-attributes.ts';
import { NotFoundError } from '@platform/errors';
import { resourceCustomAttributesRoutes } from './features/custom-attributes/resource-custom-attributes-routes.ts';
import { scimTokensRoutes } from './features/scim/scim-tokens-routes.ts';
import { scimLinksRoutes } from './features/scim/scim-links-routes.ts';

export function identityService(config: IdentityConfig): ServiceDefinition<IdentityConfig> {
  return {
    name: 'identity',
    config,
    entities: [
      User,
      Identity,
      PersonalAccessToken,
      ...Object.values(customAttributeEntities),
      SshKey,
      GpgKey,
      UserStatus,
      Namespace,
      GroupGroupLink,
      Project,
      ProjectGroupLink,
      ProjectStar,
      Member,
      SamlProvider,
      ScimToken,
      ScimIdentity,
    ],
    migrations,
    publishes: [IDENTITY_TOPIC],
    features: ({ em, orm, logger }) => {
      const views = { externalUrl: config.EXTERNAL_URL.replace(/\/$/, '') };
      const userStore = new PgUserStore(em);
      const users = new UsersService({ em, store: userStore, emailDomain: `noreply.${new URL(views.externalUrl).hostname}` });
      const customAttributes = new CustomAttributesService({
        attributes: new PgCustomAttributeStore(em, 'user'),
        ownerId: async (idOrUsername: string) => {
          const user = await userStore.findByIdOrUsername(idOrUsername);
          if (!user) throw new NotFoundError('User');
          return user.id;
        },
      });
      const sshKeys = new SshKeysService({ em, keys: new PgSshKeyStore(em) });
      const gpgKeys = new GpgKeysService({ em, keys: new PgGpgKeyStore(em) });
      const statuses = new UserStatusService({ statuses: new PgUserStatusStore(em) });
      const tokens = new TokensService({ em, tokens: new PgTokenStore(em), users: userStore });
      const namespaceStore = new PgNamespaceStore(em);
      const groupStore = new PgGroupStore(em);
      const projectStore = new PgProjectStore({ em, namespaces: namespaceStore });
      const memberStore = new PgMemberStore(em);
      const access = new AccessPolicy({ em, namespaces: namespaceStore });
      const members = new MembersService({ em, members: memberStore, users: userStore, groups: groupStore, access });
      const projects = new ProjectsService({
        em,
        projects: projectStore,
        namespaces: namespaceStore,
        groups: groupStore,
        members,
        access,
        users: userStore,
        customAttributes: new PgCustomAttributeStore(em, 'project'),
      });
      const groups = new GroupsService({
        em,
        groups: groupStore,
        projects: projectStore,
        namespaces: namespaceStore,
        members,
        access,
        users: userStore,
        customAttributes: new PgCustomAttributeStore(em, 'group'),
      });
      const accessRequests = new AccessRequestsService({ em, members, memberStore, users: userStore });
      const singleSignOnGroups = new SingleSignOnGroups({ groups: groupStore, access, members, memberStore });
      const samlProviderStore = new PgSamlProviderStore(em);
      const samlProviders = new SamlProvidersService({ em, store: samlProviderStore, groups: singleSignOnGroups });
      const scimStore = new PgScimStore(em);
      const scimTokens = new ScimTokensService({ em, store: scimStore, groups: singleSignOnGroups });
      const scim = new ScimService({
        em,
        store: scimStore,
        samlProviders: samlProviderStore,
        groups: singleSignOnGroups,
        users: new ScimProvisionedUsers({ em, users: userStore }),
      });

      return [
        {
          async start() {
            const { generatedToken } = await tokens.ensureBootstrapAdmin(config.ROOT_TOKEN);
            if (generatedToken) {
              // Shown once, on the console only: the administrator's way in.
              process.stdout.write(`Bootstrap administrator "root" created; its token is: ${generatedToken}\n`);
            }
          },
          errorRenderers: [{ pathPrefix: '/api/scim', render: scimErrorMiddleware(logger), notFound: scimEndpointNotFound }],
          routes: [
            createRouter(usersRoutes, { users, customAttributes, views }),
            createRouter(tokensRoutes, { tokens }),
            createRouter(serverMetadataRoutes, { release: { version: platformVersion(), revision: config.PLATFORM_REVISION } }),
            createRouter(customAttributesRoutes, { customAttributes }),
            createRouter(sshKeysRoutes, { sshKeys, users, views }),
            createRouter(gpgKeysRoutes, { gpgKeys, users }),
            createRouter(userStatusRoutes, { statuses, users }),
            createRouter(samlProvidersRoutes, { samlProviders }),
            createRouter(scimTokensRoutes, { scimTokens }),
            createRouter(scimRoutes, { scim }),
            createRouter(scimLinksRoutes, { scim }),
            createRouter(groupsRoutes, { groups, projects, access, views }),
            createRouter(projectsRoutes, { projects, access, views }),
            createRouter(membersRoutes, { members, access, views }),
            createRouter(accessRequestsRoutes, { accessRequests, access, views }),
            createRouter(namespacesRoutes, { namespaces: namespaceStore, access, views }),
            createRouter(resourceCustomAttributesRoutes, {
              groups: new ResourceCustomAttributes({ em, resource: 'group', access }),
              projects: new ResourceCustomAttributes({ em, resource: 'project', access }),
              access,
            }),
          ],
          rpcs: [
            identityGrpc({
              orm,
              tokens,
              users: userStore,
              views,
              logger,
              namespaceRpcs: namespacesGrpc({
                orm,
                access,
                groups: groupStore,
                projects: projectStore,
                namespaces: namespaceStore,
                views,
                logger,
              }),
              projectRpcs: projectsGrpc({ orm, access, projects, logger }),
            }),
          ],
        },
      ];
    },
  };
}

if (import.meta.main) await runService(identityService(readConfig()));
