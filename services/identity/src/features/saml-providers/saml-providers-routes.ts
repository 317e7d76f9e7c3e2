import { idOrPathParams, routesOf } from '@platform/http';
import type { SamlProvidersService } from './saml-providers-service.ts';
import { samlProviderView } from './saml-providers-views.ts';
import { configureSamlProviderParams } from './saml-providers.schemas.ts';

const route = routesOf<{ samlProviders: SamlProvidersService }>('identity');

export const samlProvidersRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/groups/:id/saml',
    access: 'user',
    scope: 'read_api',
    input: idOrPathParams,
    handle: async ({ caller, input, deps: { samlProviders } }) => samlProviderView(await samlProviders.get(caller, input.id)),
  }),

  route({
    method: 'PUT',
    path: '/api/v4/groups/:id/saml',
    access: 'user',
    scope: 'api',
    input: configureSamlProviderParams,
    handle: async ({ caller, input, deps: { samlProviders } }) => samlProviderView(await samlProviders.configure(caller, input)),
  }),
];
