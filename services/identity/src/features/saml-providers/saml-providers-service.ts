import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, InputError, NotFoundError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import type { SamlProvider } from './saml-provider.entity.ts';
import type { SamlProviderFields, SamlProviderStore } from './saml-providers-store.ts';
import { samlProviderCreatedEvent, samlProviderSnapshot, samlProviderUpdatedEvent } from './saml-providers.events.ts';
import type { ConfigureSamlProviderParams } from './saml-providers.schemas.ts';
import type { GroupOwnership } from './single-sign-on-group.ts';

/** A SHA-1 certificate fingerprint: 40 hexadecimal digits, optionally in colon-separated pairs. */
const FINGERPRINT_PATTERN = /^(?:[0-9a-f]{40}|[0-9a-f]{2}(?::[0-9a-f]{2}){19})$/i;

function validateFields(fields: SamlProviderFields): void {
  const problems: Record<string, string[]> = {};
  let url: URL | undefined;
  try {
    url = new URL(fields.ssoUrl);
  } catch {
    problems.sso_url = ['must be a valid URL'];
  }
  // The identity provider receives SAML requests carrying the user's session; never in clear text.
  if (url && url.protocol !== 'https:') problems.sso_url = ['is blocked: Only allowed schemes are https'];
  if (!FINGERPRINT_PATTERN.test(fields.certificateFingerprint)) {
    problems.certificate_fingerprint = ['must be a SHA-1 fingerprint: 40 hexadecimal digits, optionally in colon-separated pairs'];
  }
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

export class SamlProvidersService {
  readonly #em: EntityManager;
  readonly #store: SamlProviderStore;
  readonly #groups: GroupOwnership;

  constructor(options: { em: EntityManager; store: SamlProviderStore; groups: GroupOwnership }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#groups = options.groups;
  }

  async get(caller: AuthenticatedCaller, groupIdOrPath: number | string): Promise<SamlProvider> {
    const group = await this.#groups.requireOwnedGroup(caller, groupIdOrPath);
    const provider = await this.#store.findByGroupId(group.id);
    if (!provider) throw new NotFoundError('SAML Provider');
    return provider;
  }

  /** Creates the group's SAML provider, or updates the fields given; with its event, in one transaction. */
  async configure(caller: AuthenticatedCaller, input: ConfigureSamlProviderParams): Promise<SamlProvider> {
    const group = await this.#groups.requireOwnedGroup(caller, input.id);
    if (group.parentId !== null) throw new InputError('SAML single sign-on can only be configured for a top-level group');
    return this.#em.transactional(async (em) => {
      const existing = await this.#store.findByGroupId(group.id);
      const enabled = input.enabled ?? existing?.enabled;
      const ssoUrl = input.sso_url ?? existing?.ssoUrl;
      const certificateFingerprint = input.certificate_fingerprint ?? existing?.certificateFingerprint;
      if (enabled === undefined || ssoUrl === undefined || certificateFingerprint === undefined) {
        const missing = Object.entries({ enabled, sso_url: ssoUrl, certificate_fingerprint: certificateFingerprint })
          .filter(([, value]) => value === undefined)
          .map(([name]) => `${name} is missing`);
        throw new InputError(missing.join(', '));
      }
      const fields: SamlProviderFields = { enabled, ssoUrl, certificateFingerprint };
      validateFields(fields);
      const actor = actorOf(caller);
      if (!existing) {
        const provider = await this.#store.insert(group.id, fields);
        recordEvent(em, samlProviderCreatedEvent({ group, provider, actor }));
        return provider;
      }
      const previous = samlProviderSnapshot(existing);
      const unchanged =
        previous.enabled === enabled && previous.ssoUrl === ssoUrl && previous.certificateFingerprint === certificateFingerprint;
      if (unchanged) return existing;
      const provider = await this.#store.update(existing, fields);
      recordEvent(em, samlProviderUpdatedEvent({ group, provider, previous, actor }));
      return provider;
    });
  }
}
