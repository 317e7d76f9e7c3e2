import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { InputError, NotFoundError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import type { GroupOwnership } from '../saml-providers/single-sign-on-group.ts';
import { digestToken } from '../tokens/token-digest.ts';
import type { ScimStore } from './scim-store.ts';
import { scimTokenCreatedEvent, scimTokenRevokedEvent } from './scim.events.ts';

/** A new SCIM token, with GitLab's prefix for SCIM tokens so that secret scanners recognise it. */
function generateScimToken(): string {
  return `glsoat-${randomBytes(20).toString('base64url')}`;
}

/** A group's SCIM token: issued and revoked by the group's owners and administrators. */
export class ScimTokensService {
  readonly #em: EntityManager;
  readonly #store: ScimStore;
  readonly #groups: GroupOwnership;

  constructor(options: { em: EntityManager; store: ScimStore; groups: GroupOwnership }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#groups = options.groups;
  }

  /** Issues the group's token, which replaces any earlier one; the token is returned here and never again. */
  async issue(caller: AuthenticatedCaller, groupIdOrPath: number | string): Promise<string> {
    const group = await this.#groups.requireOwnedGroup(caller, groupIdOrPath);
    if (group.parentId !== null) throw new InputError('SCIM can only be enabled for a top-level group');
    const token = generateScimToken();
    await this.#em.transactional(async (em) => {
      const { replaced } = await this.#store.replaceToken(group.id, digestToken(token));
      recordEvent(em, scimTokenCreatedEvent({ group, replaced, actor: actorOf(caller) }));
    });
    return token;
  }

  /** Disables SCIM for the group: its token stops working. */
  async revoke(caller: AuthenticatedCaller, groupIdOrPath: number | string): Promise<void> {
    const group = await this.#groups.requireOwnedGroup(caller, groupIdOrPath);
    await this.#em.transactional(async (em) => {
      if (!(await this.#store.deleteToken(group.id))) throw new NotFoundError('SCIM token');
      recordEvent(em, scimTokenRevokedEvent({ group, actor: actorOf(caller) }));
    });
  }
}
