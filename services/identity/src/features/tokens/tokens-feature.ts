import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { UserStore } from '../users/users-store.ts';
import { PersonalAccessToken } from './personal-access-token.entity.ts';
import { PgTokenStore } from './tokens-store.ts';
import { TokensService } from './tokens-service.ts';
import { tokensRoutes } from './tokens-routes.ts';
import { impersonationTokensRoutes } from './impersonation-tokens-routes.ts';

export const tokensEntities = [PersonalAccessToken];

export interface TokensFeature extends Feature {
  tokens: TokensService;
}

/** Personal access and impersonation tokens, and the bootstrap administrator's on first start. */
export function createTokensFeature(deps: {
  em: EntityManager;
  users: UserStore;
  rootToken: string | undefined;
  externalUrl: string;
}): TokensFeature {
  const tokens = new TokensService({ em: deps.em, tokens: new PgTokenStore(deps.em), users: deps.users, externalUrl: deps.externalUrl });
  return {
    tokens,
    async start() {
      const { generatedToken } = await tokens.ensureBootstrapAdmin(deps.rootToken);
      if (generatedToken) {
        // Shown once, on the console only: the administrator's way in.
        process.stdout.write(`Bootstrap administrator "root" created; its token is: ${generatedToken}\n`);
      }
    },
    routes: [createRouter(tokensRoutes, { tokens }), createRouter(impersonationTokensRoutes, { tokens })],
  };
}
