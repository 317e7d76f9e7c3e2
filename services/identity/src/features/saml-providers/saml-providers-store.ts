import type { EntityManager } from '@mikro-orm/postgresql';
import { translateDbError } from '@platform/db';
import { SamlProvider } from './saml-provider.entity.ts';

export type SamlProviderFields = Pick<SamlProvider, 'enabled' | 'ssoUrl' | 'certificateFingerprint'>;

export interface SamlProviderStore {
  findByGroupId(groupId: number): Promise<SamlProvider | null>;
  /** Inserts now, so that a second provider for the group surfaces here as a ConflictError. */
  insert(groupId: number, fields: SamlProviderFields): Promise<SamlProvider>;
  update(provider: SamlProvider, fields: SamlProviderFields): Promise<SamlProvider>;
}

export class PgSamlProviderStore implements SamlProviderStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findByGroupId(groupId: number): Promise<SamlProvider | null> {
    return this.#em.findOne(SamlProvider, { groupId });
  }

  async insert(groupId: number, fields: SamlProviderFields): Promise<SamlProvider> {
    const provider = this.#em.create(SamlProvider, { groupId, ...fields });
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict: 'SAML provider has already been configured' });
    }
    return provider;
  }

  async update(provider: SamlProvider, fields: SamlProviderFields): Promise<SamlProvider> {
    this.#em.assign(provider, fields);
    await this.#em.flush();
    return provider;
  }
}
