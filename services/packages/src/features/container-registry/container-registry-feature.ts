import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { PackagesConfig } from '../../config.ts';
import { jwtAuthRoutes } from './jwt-auth-router.ts';
import { RegistryTokenIssuer } from './registry-token.ts';

/** The container registry: tokens for the Distribution registry. */
export function createContainerRegistryFeature(deps: { access: IdentityAccess; logger: Logger; config: PackagesConfig }): Feature {
  const tokens = new RegistryTokenIssuer({
    keyFile: deps.config.REGISTRY_TOKEN_KEY_FILE,
    issuer: deps.config.REGISTRY_TOKEN_ISSUER,
    service: deps.config.REGISTRY_SERVICE,
    expirySeconds: deps.config.REGISTRY_TOKEN_EXPIRY_SECONDS,
  });
  if (!tokens.configured)
    deps.logger.warn('REGISTRY_TOKEN_KEY_FILE is unset: registry tokens are signed with a key generated for this run');
  return {
    streamingRoutes: [jwtAuthRoutes({ access: deps.access, tokens, service: deps.config.REGISTRY_SERVICE, logger: deps.logger })],
  };
}
