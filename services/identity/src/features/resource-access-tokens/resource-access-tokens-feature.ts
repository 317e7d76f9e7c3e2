import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { MembersService } from '../members/members-service.ts';
import type { MemberStore } from '../members/members-store.ts';
import type { TokensService } from '../tokens/tokens-service.ts';
import type { UserStore } from '../users/users-store.ts';
import { ResourceAccessTokensService } from './resource-access-tokens-service.ts';
import { resourceAccessTokensRoutes } from './resource-access-tokens-routes.ts';

/** Project and group access tokens: a bot user per token, a member of the project or group. */
export function createResourceAccessTokensFeature(deps: {
  em: EntityManager;
  tokens: TokensService;
  users: UserStore;
  members: MembersService;
  memberStore: MemberStore;
  access: AccessPolicy;
  externalUrl: string;
}): Feature {
  const accessTokens = new ResourceAccessTokensService(deps);
  return { routes: [createRouter(resourceAccessTokensRoutes, { accessTokens })] };
}
