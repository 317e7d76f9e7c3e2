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
  type FindUsersByEmailRequest,
  type FindUsersByEmailResponse,
  type FindUsersByUsernameRequest,
  type FindUsersByUsernameResponse,
  type GetUsersRequest,
  type GetUsersResponse,
  type IdentityServiceServer,
  type UserSummary,
  type VerifyPasswordRequest,
  type VerifyPasswordResponse,
} from '@platform/proto/identity/v1';
import { passwordMatches } from '../access/passwords.ts';
import type { TokensService } from '../tokens/tokens-service.ts';
import type { UserStore } from '../users/users-store.ts';
import type { UsersReadModel } from '../users/users-read-model.ts';
import { basicUserView, type BasicUser, type ViewContext } from '../users/user-views.ts';

/**
 * What each RPC may do for a user's token, as the routes that lead to it: user summaries serve
 * API and git reads alike; authenticating is the gateway's own question, asked on its own behalf.
 */
const AUTHENTICATION_RPC_SCOPES: Record<
  'authenticate' | 'getUsers' | 'findUsersByUsername' | 'findUsersByEmail' | 'checkAdministrator' | 'verifyPassword',
  RpcScope
> = {
  authenticate: 'internal',
  // Approving a merge request with a password is a write through the API.
  verifyPassword: ['api'],
  getUsers: ['read_api', 'read_repository'],
  findUsersByUsername: ['read_api', 'read_repository'],
  findUsersByEmail: ['read_api', 'read_repository'],
  // Asked for whichever token reached an administrator-only route; it tells only about the caller.
  checkAdministrator: ['read_user', 'read_api', 'read_repository', 'read_registry'],
};

/**
 * The user ids and usernames GitLab's private commit emails name: `<id>-<username>@users.noreply.<host>`,
 * the address git operations made on a user's behalf are written with.
 */
function privateCommitEmails(emails: readonly string[], views: ViewContext): Map<number, Set<string>> {
  const domain = `@users.noreply.${new URL(views.externalUrl).hostname}`.toLowerCase();
  const named = new Map<number, Set<string>>();
  for (const email of emails.map((address) => address.toLowerCase())) {
    if (!email.endsWith(domain)) continue;
    const match = /^(\d{1,10})-(.+)$/.exec(email.slice(0, -domain.length));
    if (!match) continue;
    const id = Number(match[1]);
    named.set(id, (named.get(id) ?? new Set()).add(match[2] as string));
  }
  return named;
}

/**
 * Identity's gRPC API for authentication and users: each call runs in its own unit of work. The
 * namespaces and projects features serve the rest of `IdentityService`.
 */
export function identityGrpc(options: {
  orm: Orm;
  tokens: TokensService;
  users: UserStore;
  /** GetUsers answers from it: every merge request, issue and note list asks for its page's users. */
  userReads: UsersReadModel;
  /** Confirms the signed caller's administrator flag against the user's current row. */
  administrators: AdministratorCheck;
  views: ViewContext;
  logger: Logger;
}): GrpcServiceBinding {
  const { orm, tokens, users, userReads, administrators, views, logger } = options;
  const summaryOf = (user: BasicUser): UserSummary => {
    const view = basicUserView(user, views);
    return {
      id: view.id,
      username: view.username,
      name: view.name,
      // A ban is a block to GitLab.
      state: user.state === 'blocked' || user.state === 'banned' ? UserState.USER_STATE_BLOCKED : UserState.USER_STATE_ACTIVE,
      avatarUrl: view.avatar_url,
      webUrl: view.web_url,
    };
  };
  const implementation: Pick<
    IdentityServiceServer,
    'authenticate' | 'getUsers' | 'findUsersByUsername' | 'findUsersByEmail' | 'checkAdministrator' | 'verifyPassword'
  > = {
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
    verifyPassword: unaryHandler(logger, (request: VerifyPasswordRequest, { caller }) =>
      inUnitOfWork(orm, async (): Promise<VerifyPasswordResponse> => {
        const user = caller.kind === 'user' ? await users.findById(caller.userId) : null;
        if (!user?.passwordHash || user.state !== 'active' || !request.password) return { valid: false };
        return { valid: await passwordMatches(user.passwordHash, request.password) };
      }),
    ),
    getUsers: unaryHandler(
      logger,
      async (request: GetUsersRequest): Promise<GetUsersResponse> => ({ users: (await userReads.basicUsers(request.ids)).map(summaryOf) }),
    ),
    findUsersByUsername: unaryHandler(logger, (request: FindUsersByUsernameRequest) =>
      inUnitOfWork(
        orm,
        async (): Promise<FindUsersByUsernameResponse> => ({ users: (await users.findByUsernames(request.usernames)).map(summaryOf) }),
      ),
    ),
    findUsersByEmail: unaryHandler(logger, (request: FindUsersByEmailRequest) =>
      inUnitOfWork(orm, async (): Promise<FindUsersByEmailResponse> => {
        const privateEmails = privateCommitEmails(request.emails, views);
        const [byPrimary, byPrivate] = await Promise.all([
          users.findByConfirmedEmails(request.emails),
          users.findByIds([...privateEmails.keys()]),
        ]);
        // A private commit email names both the id and the username: both must still agree.
        const matching = byPrivate.filter((user) => privateEmails.get(user.id)?.has(user.username.toLowerCase()));
        const found = new Map([...byPrimary, ...matching].map((user) => [user.id, user]));
        return { users: [...found.values()].map(summaryOf) };
      }),
    ),
  };
  return { definition: IdentityServiceService, implementation, scopes: AUTHENTICATION_RPC_SCOPES };
}
