import type { EventActor } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import type { SamlProviderSnapshot } from '@platform/proto/identity/v1/scim-events';
import type { SamlProvider } from './saml-provider.entity.ts';
import type { SingleSignOnGroupRef } from './single-sign-on-group.ts';

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
    ...identityEvents.samlProviderCreated.event({
      aggregateId: options.group.id,
      data: {
        group: { id: options.group.id, fullPath: options.group.fullPath },
        samlProvider: samlProviderSnapshot(options.provider),
      },
    }),
    actor: options.actor,
  };
}

export function samlProviderUpdatedEvent(options: {
  group: SingleSignOnGroupRef;
  provider: SamlProvider;
  previous: SamlProviderSnapshot;
  actor: EventActor;
}) {
  return {
    ...identityEvents.samlProviderUpdated.event({
      aggregateId: options.group.id,
      data: {
        group: { id: options.group.id, fullPath: options.group.fullPath },
        samlProvider: samlProviderSnapshot(options.provider),
        previous: options.previous,
      },
    }),
    actor: options.actor,
  };
}
