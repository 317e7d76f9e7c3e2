import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { GroupStore } from '../groups/groups-store.ts';
import type { MembersService } from '../members/members-service.ts';
import type { MemberStore } from '../members/members-store.ts';
import { PgSamlProviderStore } from '../saml-providers/saml-providers-store.ts';
import type { UserStore } from '../users/users-store.ts';
import { ScimIdentity, ScimToken } from './scim.entity.ts';
import { scimEndpointNotFound, scimErrorMiddleware } from './scim-errors.ts';
import { SingleSignOnGroups } from './scim-groups.ts';
import { scimLinksRoutes } from './scim-links-routes.ts';
import { scimRoutes } from './scim-routes.ts';
import { ScimService } from './scim-service.ts';
import { PgScimStore } from './scim-store.ts';
import { ScimTokensService } from './scim-tokens-service.ts';
import { scimTokensRoutes } from './scim-tokens-routes.ts';
import { ScimProvisionedUsers } from './scim-users.ts';

export const scimEntities = [ScimToken, ScimIdentity];

export interface ScimFeature extends Feature {
  /** Group ownership as single sign-on checks it, for the SAML providers feature. */
  singleSignOnGroups: SingleSignOnGroups;
}

/** SCIM provisioning of a group's users by its identity provider, its tokens, and users' links to it. */
export function createScimFeature(deps: {
  em: EntityManager;
  logger: Logger;
  access: AccessPolicy;
  groups: GroupStore;
  members: { members: MembersService; store: MemberStore };
  users: UserStore;
}): ScimFeature {
  const { em } = deps;
  const singleSignOnGroups = new SingleSignOnGroups({
    groups: deps.groups,
    access: deps.access,
    members: deps.members.members,
    memberStore: deps.members.store,
  });
  const store = new PgScimStore(em);
  const scimTokens = new ScimTokensService({ em, store, groups: singleSignOnGroups });
  const scim = new ScimService({
    em,
    store,
    samlProviders: new PgSamlProviderStore(em),
    groups: singleSignOnGroups,
    users: new ScimProvisionedUsers({ em, users: deps.users }),
  });
  return {
    singleSignOnGroups,
    errorRenderers: [{ pathPrefix: '/api/scim', render: scimErrorMiddleware(deps.logger), notFound: scimEndpointNotFound }],
    routes: [createRouter(scimTokensRoutes, { scimTokens }), createRouter(scimRoutes, { scim }), createRouter(scimLinksRoutes, { scim })],
  };
}
