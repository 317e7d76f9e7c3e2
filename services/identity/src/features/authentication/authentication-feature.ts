import type { AdministratorCheck } from '@platform/auth';
import type { Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { TokensService } from '../tokens/tokens-service.ts';
import type { ViewContext } from '../users/user-views.ts';
import type { UserStore } from '../users/users-store.ts';
import type { UsersReadModel } from '../users/users-read-model.ts';
import { identityGrpc } from './identity-grpc.ts';

/** The RPCs through which the gateway authenticates tokens and services read users and confirm administrators. */
export function createAuthenticationFeature(deps: {
  orm: Orm;
  logger: Logger;
  tokens: TokensService;
  users: UserStore;
  userReads: UsersReadModel;
  administrators: AdministratorCheck;
  views: ViewContext;
}): Feature {
  return { rpcs: [identityGrpc(deps)] };
}
