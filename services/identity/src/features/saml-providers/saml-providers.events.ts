import type { EventActor } from '@platform/events';
import { SamlProviderCreated, SamlProviderUpdated, type SamlProviderSnapshot } from '@platform/proto/identity/v1/scim-events';
import { IDENTITY_TOPIC } from '../users/users.events.ts';
import type { SingleSignOnGroupRef } from './saml-providers-service.ts';
import type { SamlProvider } from './saml-provider.entity.ts';

export function samlProviderSnapshot(provider: SamlProvider): SamlProviderSnapshot {
  return {
    id: provider.id,
    enabled: provider.enabled,
    ssoUrl: provider.ssoUrl,
    certificateFingerprint: provider.certificateFingerprint,
  };
}

/** Keyed by the group, like every single sign-on and provisioning event. */
export function samlProviderCreatedEvent(options: { group: SingleSignOnGroupRef; provider: SamlProvider; actor: EventActor }) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.saml_provider.created',
    aggregateId: options.group.id,
    actor: options.actor,
    data: SamlProviderCreated.toJSON({
      group: { id: options.group.id, fullPath: options.group.fullPath },
      samlProvider: samlProviderSnapshot(options.provider),
    }) as Record<string, unknown>,
  };
}

export function samlProviderUpdatedEvent(options: {
  group: SingleSignOnGroupRef;
  provider: SamlProvider;
  previous: SamlProviderSnapshot;
  actor: EventActor;
}) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.saml_provider.updated',
    aggregateId: options.group.id,
    actor: options.actor,
    data: SamlProviderUpdated.toJSON({
      group: { id: options.group.id, fullPath: options.group.fullPath },
      samlProvider: samlProviderSnapshot(options.provider),
      previous: options.previous,
    }) as Record<string, unknown>,
  };
}
