import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@mikro-orm/core';
import { translateDbError } from '@platform/db';
import { Identity } from '../users/user.entity.ts';
import { ScimIdentity, ScimToken } from './scim.entity.ts';
import { findPage } from '@platform/db';

/** The provider name of identities that link a user to a group's SAML provider. */
export const GROUP_SAML_PROVIDER = 'group_saml';

export type NewScimIdentity = Pick<ScimIdentity, 'groupId' | 'userId' | 'externUid' | 'active' | 'provisionedUser' | 'linkConfirmedAt'>;

export interface ScimStore {
  findToken(groupId: number): Promise<ScimToken | null>;
  /** Stores the group's token digest, replacing an earlier one; says whether there was one. */
  replaceToken(groupId: number, tokenDigest: string): Promise<{ replaced: boolean }>;
  /** Says whether there was a token to delete. */
  deleteToken(groupId: number): Promise<boolean>;

  /** External UIDs match regardless of case. */
  findIdentity(groupId: number, externUid: string): Promise<ScimIdentity | null>;
  findIdentityOfUser(groupId: number, userId: number): Promise<ScimIdentity | null>;
  listIdentities(groupId: number, page: { offset: number; limit: number }): Promise<{ identities: ScimIdentity[]; total: number }>;
  /** Inserts now, so that a taken external UID or user surfaces here as a ConflictError. */
  insertIdentity(identity: NewScimIdentity): Promise<ScimIdentity>;
  updateIdentity(identity: ScimIdentity, changes: Partial<Pick<ScimIdentity, 'externUid' | 'active' | 'linkConfirmedAt'>>): Promise<void>;
  /** Links of existing accounts that wait for their owner's confirmation, oldest first. */
  listPendingLinks(userId: number): Promise<ScimIdentity[]>;
  deleteIdentity(identity: ScimIdentity): Promise<void>;

  /** Gives the user the `group_saml` identity for the group's SAML provider, replacing any earlier one. */
  linkSamlIdentity(link: { userId: number; samlProviderId: number; externUid: string }): Promise<void>;
  unlinkSamlIdentity(link: { userId: number; samlProviderId: number }): Promise<void>;
  renameSamlIdentity(link: { userId: number; samlProviderId: number; externUid: string }): Promise<void>;
}

const externUidConflict = 'externalId has already been taken';

export class PgScimStore implements ScimStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  findToken(groupId: number): Promise<ScimToken | null> {
    return this.#em.findOne(ScimToken, { groupId });
  }

  async replaceToken(groupId: number, tokenDigest: string): Promise<{ replaced: boolean }> {
    const replaced = (await this.#em.nativeDelete(ScimToken, { groupId })) > 0;
    this.#em.create(ScimToken, { groupId, tokenDigest });
    await this.#em.flush();
    return { replaced };
  }

  async deleteToken(groupId: number): Promise<boolean> {
    return (await this.#em.nativeDelete(ScimToken, { groupId })) > 0;
  }

  findIdentity(groupId: number, externUid: string): Promise<ScimIdentity | null> {
    return this.#em.findOne(ScimIdentity, {
      groupId,
      [sql.lower((alias) => `${alias}.extern_uid`)]: externUid.toLowerCase(),
    });
  }

  findIdentityOfUser(groupId: number, userId: number): Promise<ScimIdentity | null> {
    return this.#em.findOne(ScimIdentity, { groupId, userId });
  }

  async listIdentities(groupId: number, page: { offset: number; limit: number }) {
    // SCIM's totalResults is required, and a group's identities are bounded by its members.
    const { items, total } = await findPage(
      this.#em,
      ScimIdentity,
      { groupId },
      { orderBy: { id: 'asc' }, window: page, exactTotal: true },
    );
    return { identities: items, total: total ?? 0 };
  }

  async insertIdentity(identity: NewScimIdentity): Promise<ScimIdentity> {
    const entity = this.#em.create(ScimIdentity, identity);
    await this.#flush(externUidConflict);
    return entity;
  }

  async updateIdentity(
    identity: ScimIdentity,
    changes: Partial<Pick<ScimIdentity, 'externUid' | 'active' | 'linkConfirmedAt'>>,
  ): Promise<void> {
    this.#em.assign(identity, changes);
    await this.#flush(externUidConflict);
  }

  listPendingLinks(userId: number): Promise<ScimIdentity[]> {
    return this.#em.find(ScimIdentity, { userId, linkConfirmedAt: null }, { orderBy: { id: 'asc' } });
  }

  async deleteIdentity(identity: ScimIdentity): Promise<void> {
    this.#em.remove(identity);
    await this.#em.flush();
  }

  async linkSamlIdentity(link: { userId: number; samlProviderId: number; externUid: string }): Promise<void> {
    // A user has one identity per SAML provider; an earlier link (made through the users API) gives way.
    await this.unlinkSamlIdentity({ userId: link.userId, samlProviderId: link.samlProviderId });
    this.#em.create(Identity, { ...link, provider: GROUP_SAML_PROVIDER });
    await this.#flush(externUidConflict);
  }

  async unlinkSamlIdentity(link: { userId: number; samlProviderId: number }): Promise<void> {
    await this.#em.nativeDelete(Identity, { ...link, provider: GROUP_SAML_PROVIDER });
  }

  async renameSamlIdentity(link: { userId: number; samlProviderId: number; externUid: string }): Promise<void> {
    const { externUid, ...where } = link;
    try {
      await this.#em.nativeUpdate(Identity, { ...where, provider: GROUP_SAML_PROVIDER }, { externUid });
    } catch (error) {
      throw translateDbError(error, { conflict: externUidConflict });
    }
  }

  async #flush(conflict: string): Promise<void> {
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict });
    }
  }
}
