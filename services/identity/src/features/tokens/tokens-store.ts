import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonalAccessToken } from './personal-access-token.entity.ts';

export type NewToken = Pick<PersonalAccessToken, 'userId' | 'name' | 'tokenDigest' | 'scopes' | 'expiresAt'>;

export interface TokenStore {
  findByDigest(digest: string): Promise<PersonalAccessToken | null>;
  insert(token: NewToken): Promise<PersonalAccessToken>;
}

export class PgTokenStore implements TokenStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findByDigest(digest: string): Promise<PersonalAccessToken | null> {
    return this.#em.findOne(PersonalAccessToken, { tokenDigest: digest });
  }

  async insert(token: NewToken): Promise<PersonalAccessToken> {
    const entity = this.#em.create(PersonalAccessToken, token);
    await this.#em.flush();
    return entity;
  }
}
