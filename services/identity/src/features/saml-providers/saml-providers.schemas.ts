import { z } from 'zod';
import { params } from '@platform/http';

/** `PUT /groups/:id/saml`: every field is required to create the provider, none to update it. */
export const configureSamlProviderParams = z.object({
  id: params.idOrPath(),
  enabled: params.boolean().optional(),
  sso_url: z.string().trim().max(2048).optional(),
  certificate_fingerprint: z.string().trim().max(255).optional(),
});
export type ConfigureSamlProviderParams = z.output<typeof configureSamlProviderParams>;
