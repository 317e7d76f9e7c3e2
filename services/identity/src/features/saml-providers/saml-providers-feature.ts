import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { SamlProvider } from './saml-provider.entity.ts';
import { PgSamlProviderStore } from './saml-providers-store.ts';
import { SamlProvidersService } from './saml-providers-service.ts';
import { samlProvidersRoutes } from './saml-providers-routes.ts';
import type { GroupOwnership } from './single-sign-on-group.ts';

export const samlProvidersEntities = [SamlProvider];

/** A top-level group's SAML single sign-on settings. */
export function createSamlProvidersFeature(deps: { em: EntityManager; groups: GroupOwnership }): Feature {
  const samlProviders = new SamlProvidersService({ em: deps.em, store: new PgSamlProviderStore(deps.em), groups: deps.groups });
  return { routes: [createRouter(samlProvidersRoutes, { samlProviders })] };
}
