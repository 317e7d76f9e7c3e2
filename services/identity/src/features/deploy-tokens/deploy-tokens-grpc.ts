import { inUnitOfWork, type Orm } from '@platform/db';
import { unaryHandler, type GrpcServiceBinding } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import {
  IdentityServiceService,
  type AuthenticateDeployTokenRequest,
  type AuthenticateDeployTokenResponse,
} from '@platform/proto/identity/v1';
import type { DeployTokensService } from './deploy-tokens-service.ts';

/** The gateway's question for routes that accept deploy tokens (git over HTTP, the registries), asked on its own behalf. */
export function deployTokensGrpc(options: { orm: Orm; deployTokens: DeployTokensService; logger: Logger }): GrpcServiceBinding {
  const { orm, deployTokens, logger } = options;
  return {
    definition: IdentityServiceService,
    implementation: {
      authenticateDeployToken: unaryHandler(logger, (request: AuthenticateDeployTokenRequest) =>
        inUnitOfWork(orm, async (): Promise<AuthenticateDeployTokenResponse> => {
          const token = await deployTokens.authenticate(request.token, request.username || undefined);
          return { ...token, projectId: token.projectId ?? 0, groupId: token.groupId ?? 0 };
        }),
      ),
    },
    scopes: { authenticateDeployToken: 'internal' },
  };
}
