import { Router } from 'express';
import { requireUser } from '@platform/auth';
import { asyncHandler, callerOf, parseParams, requestParams } from '@platform/http';
import type { SamlProvider } from './saml-provider.entity.ts';
import type { SamlProvidersService } from './saml-providers-service.ts';
import { configureSamlProviderParams, groupIdParams } from './saml-providers.schemas.ts';

/** Its `id` is the `saml_provider_id` of the `group_saml` identities it signs in. */
export function samlProviderView(provider: SamlProvider) {
  return {
    id: provider.id,
    enabled: provider.enabled,
    sso_url: provider.ssoUrl,
    certificate_fingerprint: provider.certificateFingerprint,
  };
}

export function samlProvidersRoutes(options: { samlProviders: SamlProvidersService }): Router {
  const { samlProviders } = options;
  const router = Router();

  router.get(
    '/api/v4/groups/:id/saml',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { id } = parseParams(groupIdParams, req.params);
      res.json(samlProviderView(await samlProviders.get(caller, id)));
    }),
  );

  router.put(
    '/api/v4/groups/:id/saml',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const input = parseParams(configureSamlProviderParams, requestParams(req));
      res.json(samlProviderView(await samlProviders.configure(caller, input)));
    }),
  );

  return router;
}
