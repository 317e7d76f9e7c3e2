import type { SamlProvider } from './saml-provider.entity.ts';

/** Its `id` is the `saml_provider_id` of the `group_saml` identities it signs in. */
export function samlProviderView(provider: SamlProvider) {
  return {
    id: provider.id,
    enabled: provider.enabled,
    sso_url: provider.ssoUrl,
    certificate_fingerprint: provider.certificateFingerprint,
  };
}
