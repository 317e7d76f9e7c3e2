import type { AdministratorCheck } from '@platform/auth';
import type { Logger } from '@platform/logger';
import { unaryHandler, type GrpcServiceBinding, type RpcScope } from '@platform/grpc';
import { inUnitOfWork, type Orm } from '@platform/db';
import {
  IdentityServiceService,
  UserState,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type CheckAdministratorRequest,
  type CheckAdministratorResponse,
  type GetUsersRequest,
  type GetUsersResponse,
  type IdentityServiceServer,
} from '@platform/proto/identity/v1';
import type { TokensService } from '../tokens/tokens-service.ts';
import type { UserStore } from '../users/users-store.ts';
import { basicUserView, type ViewContext } from '../users/user-views.ts';

/**
 * What each RPC may do for a user's token, as the routes that lead to it: user summaries serve
 * API and git reads alike; authenticating is the gateway's own question, asked on its own behalf.
 */
const AUTHENTICATION_RPC_SCOPES: Record<'authenticate' | 'getUsers' | 'checkAdministrator', RpcScope> = {
  authenticate: 'internal',
  getUsers: ['read_api', 'read_repository'],
  // Asked for whichever token reached an administrator-only route; it tells only about the caller.
  checkAdministrator: ['read_user', 'read_api', 'read_repository', 'read_registry'],
};

/**
 * Identity's gRPC API for authentication and users: each call runs in its own unit of work. The
 * namespaces and projects features serve the rest of `IdentityService`.
 */
export function identityGrpc(options: {
  orm: Orm;
  tokens: TokensService;
  users: UserStore;
  /** Confirms the signed caller's administrator flag against the user's current row. */
  administrators: AdministratorCheck;
  views: ViewContext;
  logger: Logger;
}): GrpcServiceBinding {
  const { orm, tokens, users, administrators, views, logger } = options;
  const implementation: Pick<IdentityServiceServer, 'authenticate' | 'getUsers' | 'checkAdministrator'> = {
    authenticate: unaryHandler(logger, (request: AuthenticateRequest) =>
      inUnitOfWork(orm, async (): Promise<AuthenticateResponse> => {
        const { user, scopes, tokenId, impersonator } = await tokens.authenticate(request.token, request.sudo || undefined);
        return {
          user: { id: user.id, username: user.username, name: user.name, isAdmin: user.isAdmin },
          scopes,
          impersonatorId: impersonator?.id ?? 0,
          tokenId,
        };
      }),
    ),
    checkAdministrator: unaryHandler(logger, (_request: CheckAdministratorRequest, { caller }) =>
      inUnitOfWork(
        orm,
        async (): Promise<CheckAdministratorResponse> => ({
          isAdministrator: caller.kind === 'user' && (await administrators.isAdministrator(caller)),
        }),
      ),
    ),
    getUsers: unaryHandler(logger, (request: GetUsersRequest) =>
      inUnitOfWork(orm, async (): Promise<GetUsersResponse> => {
        const found = await users.findByIds(request.ids);
        return {
          users: found.map((user) => {
            const view = basicUserView(user, views);
            return {
              id: view.id,
              username: view.username,
              name: view.name,
              state: user.state === 'blocked' ? UserState.USER_STATE_BLOCKED : UserState.USER_STATE_ACTIVE,
              avatarUrl: view.avatar_url,
              webUrl: view.web_url,
            };
          }),
        };
      }),
    ),
  };
  return { definition: IdentityServiceService, implementation, scopes: AUTHENTICATION_RPC_SCOPES };
}
