import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthenticatedCaller } from '@platform/auth';
import { ConflictError, ForbiddenError, InputError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { SamlProvider } from '../saml-providers/saml-provider.entity.ts';
import type { SamlProviderStore } from '../saml-providers/saml-providers-store.ts';
import type { SingleSignOnGroupRef } from '../saml-providers/single-sign-on-group.ts';
import { digestToken } from '../tokens/token-digest.ts';
import type { User } from '../users/user.entity.ts';
import { ScimNotFoundError } from './scim-errors.ts';
import { parseUserFilter, type ScimUserFilter } from './scim-filter.ts';
import { changesFromOperations, type ScimPatchOperation } from './scim-patch.ts';
import type { ScimIdentity } from './scim.entity.ts';
import type { CreateScimUserBody, ListScimUsersQuery } from './scim.schemas.ts';
import type { ScimStore } from './scim-store.ts';
import { chooseEmail, looksLikeEmail, nameFrom, usernameFrom } from './scim-user-attributes.ts';
import type { ProvisionedUser } from './scim-views.ts';
import { scimPage } from './scim-paging.ts';
import { scimUserDeprovisionedEvent, scimUserProvisionedEvent } from './scim.events.ts';

/** GitLab's default role for provisioned users; an existing higher role is kept. */
const PROVISIONED_ACCESS_LEVEL = ACCESS_LEVEL.GUEST;

/** What SCIM needs of groups and their memberships. */
export interface ProvisioningGroups {
  findByFullPath(fullPath: string): Promise<SingleSignOnGroupRef | null>;
  findById(id: number): Promise<SingleSignOnGroupRef | null>;
  /** Makes the user a member at `accessLevel`, unless they already are a member. */
  addMember(options: { group: SingleSignOnGroupRef; userId: number; accessLevel: number }): Promise<void>;
  /** Ends the user's membership, if they have one. */
  removeMember(options: { group: SingleSignOnGroupRef; userId: number }): Promise<void>;
}

export type ProvisionedUserAttributes = Pick<User, 'username' | 'email' | 'name'>;

/** What SCIM needs of users: it creates and renames them, but users are the users feature's. */
export interface ProvisioningUsers {
  findById(id: number): Promise<User | null>;
  findByIds(ids: number[]): Promise<User[]>;
  /** Case-insensitive, as usernames and emails are unique regardless of case. */
  findByUsername(username: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /** A confirmed user with a random password they never learn: they sign in through their identity provider. */
  create(attributes: ProvisionedUserAttributes): Promise<User>;
  update(user: User, changes: Partial<ProvisionedUserAttributes>): Promise<User>;
}

/** The group a SCIM request was authenticated for. */
export interface ScimContext {
  group: SingleSignOnGroupRef;
  samlProvider: SamlProvider;
}

export interface ScimUserPage {
  items: ProvisionedUser[];
  total: number;
  startIndex: number;
  count: number;
}

function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Provisioning of a group's users by its identity provider (RFC 7644). A provisioned user is a
 * SCIM identity under the provider's external UID; while active it comes with a `group_saml`
 * identity for the group's SAML provider and a membership of the group.
 */
export class ScimService {
  readonly #em: EntityManager;
  readonly #store: ScimStore;
  readonly #samlProviders: SamlProviderStore;
  readonly #groups: ProvisioningGroups;
  readonly #users: ProvisioningUsers;

  constructor(options: {
    em: EntityManager;
    store: ScimStore;
    samlProviders: SamlProviderStore;
    groups: ProvisioningGroups;
    users: ProvisioningUsers;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#samlProviders = options.samlProviders;
    this.#groups = options.groups;
    this.#users = options.users;
  }

  /**
   * Resolves the group of a SCIM path and checks the bearer token against the group's SCIM token.
   * A group without enabled single sign-on or without a SCIM token refuses, naming the reason.
   */
  async authenticate(groupPath: string, bearerToken: string | undefined): Promise<ScimContext> {
    const group = await this.#groups.findByFullPath(groupPath);
    if (!group) throw new ScimNotFoundError(`Group ${groupPath} not found`);
    const samlProvider = await this.#samlProviders.findByGroupId(group.id);
    if (!samlProvider?.enabled) throw new ScimNotFoundError(`Group ${groupPath} does not have SAML SSO configured`);
    const token = await this.#store.findToken(group.id);
    if (!token) throw new ScimNotFoundError(`Group ${groupPath} does not have SCIM enabled`);
    if (!bearerToken || !sameDigest(digestToken(bearerToken), token.tokenDigest)) throw new UnauthorizedError();
    return { group, samlProvider };
  }

  async list(context: ScimContext, query: ListScimUsersQuery): Promise<ScimUserPage> {
    const { startIndex, count } = scimPage(query);
    if (query.filter?.trim()) {
      const identity = await this.#findByFilter(context.group.id, parseUserFilter(query.filter));
      const matches = identity ? await this.#withUsers([identity]) : [];
      return { items: matches.slice(startIndex - 1, startIndex - 1 + count), total: matches.length, startIndex, count };
    }
    const { identities, total } = await this.#store.listIdentities(context.group.id, { offset: startIndex - 1, limit: count });
    return { items: await this.#withUsers(identities), total, startIndex, count };
  }

  async get(context: ScimContext, externUid: string): Promise<ProvisionedUser> {
    const identity = await this.#requireIdentity(context, externUid);
    return { identity, user: await this.#userOf(identity) };
  }

  /**
   * Provisions a user: creates one and grants the SAML identity and the membership. When an
   * account with the email exists, it is neither changed nor linked: the link waits until its
   * owner confirms it (`confirmLink`), and an administrator's account is never linked. A
   * deactivated user's externalId provisions them again.
   */
  async create(context: ScimContext, body: CreateScimUserBody): Promise<ProvisionedUser> {
    const email = String(chooseEmail(body.emails));
    const name = nameFrom(body.name);
    if (name === undefined) throw new InputError('name must have formatted, or givenName and familyName');
    const username = usernameFrom(body.userName);
    const active = body.active ?? true;
    return this.#em.transactional(async () => {
      const existing = await this.#store.findIdentity(context.group.id, body.externalId);
      if (existing) {
        if (existing.active || !active) throw new ConflictError(`User with externalId ${body.externalId} has already been provisioned`);
        return this.#reactivate(context, existing);
      }
      const existingUser = await this.#users.findByEmail(email);
      if (existingUser) {
        if (await this.#store.findIdentityOfUser(context.group.id, existingUser.id)) {
          throw new ConflictError(`User with email ${email} has already been provisioned under another externalId`);
        }
        if (existingUser.isAdmin) throw new ConflictError(`User with email ${email} cannot be linked to this identity provider`);
        const identity = await this.#store.insertIdentity({
          groupId: context.group.id,
          userId: existingUser.id,
          externUid: body.externalId,
          active,
          provisionedUser: false,
          linkConfirmedAt: null,
        });
        return { identity, user: existingUser };
      }
      const user = await this.#users.create({ username, email, name });
      const identity = await this.#store.insertIdentity({
        groupId: context.group.id,
        userId: user.id,
        externUid: body.externalId,
        active,
        provisionedUser: true,
        linkConfirmedAt: new Date(),
      });
      if (active) await this.#grantAccess(context, { identity, user }, { userCreated: true, reactivated: false });
      return { identity, user };
    });
  }

  /**
   * Applies PATCH operations: renames, email and externalId changes, deactivation and reactivation.
   * Name, email and username change only for a user this group's provider created; for an account
   * it merely links, they are ignored, as GitLab ignores them.
   */
  async update(context: ScimContext, externUid: string, operations: ScimPatchOperation[]): Promise<void> {
    const changes = changesFromOperations(operations);
    await this.#em.transactional(async () => {
      const identity = await this.#requireIdentity(context, externUid);
      let user = await this.#userOf(identity);
      const userChanges: Partial<ProvisionedUserAttributes> = {};
      if (changes.name !== undefined && changes.name !== user.name) userChanges.name = changes.name;
      if (changes.email !== undefined && changes.email !== user.email) userChanges.email = changes.email;
      if (changes.username !== undefined) {
        const username = usernameFrom(changes.username);
        if (username !== user.username) userChanges.username = username;
      }
      if (identity.provisionedUser && Object.keys(userChanges).length > 0) user = await this.#users.update(user, userChanges);

      if (changes.externUid !== undefined && changes.externUid !== identity.externUid) {
        await this.#store.updateIdentity(identity, { externUid: changes.externUid });
        if (identity.active && identity.linkConfirmedAt) {
          await this.#store.renameSamlIdentity({ userId: user.id, samlProviderId: context.samlProvider.id, externUid: changes.externUid });
        }
      }
      if (changes.active === false && identity.active) await this.#deactivate(context, { identity, user });
      if (changes.active === true && !identity.active) await this.#reactivate(context, identity);
    });
  }

  /** Deprovisions a user for good: the SCIM identity, the SAML identity and the membership go; the user stays. */
  async delete(context: ScimContext, externUid: string): Promise<void> {
    await this.#em.transactional(async (em) => {
      const identity = await this.#requireIdentity(context, externUid);
      const user = await this.#userOf(identity);
      if (identity.linkConfirmedAt) await this.#revokeAccess(context, user);
      await this.#store.deleteIdentity(identity);
      recordEvent(em, scimUserDeprovisionedEvent({ group: context.group, user, externUid: identity.externUid, reason: 'deleted' }));
    });
  }

  /** The links of existing accounts to groups' identity providers that wait for the user's confirmation. */
  async pendingLinks(caller: AuthenticatedCaller): Promise<Array<{ identity: ScimIdentity; group: SingleSignOnGroupRef }>> {
    const identities = await this.#store.listPendingLinks(caller.userId);
    const links = await Promise.all(
      identities.map(async (identity) => {
        const group = await this.#groups.findById(identity.groupId);
        return group ? [{ identity, group }] : [];
      }),
    );
    return links.flat();
  }

  /**
   * The account's owner agrees to the link: from now on the group's identity provider manages
   * the user's membership of the group and SAML identity (never their profile). Only the owner,
   * not an administrator acting as them, may agree, and an administrator's account is never linked.
   */
  async confirmLink(caller: AuthenticatedCaller, groupId: number): Promise<void> {
    if (caller.impersonatorId !== undefined) throw new ForbiddenError('Only the account owner can confirm a link');
    await this.#em.transactional(async () => {
      const identity = await this.#requirePendingLink(caller, groupId);
      const user = await this.#userOf(identity);
      if (user.isAdmin) throw new ForbiddenError('Administrator accounts are not linked to identity providers');
      const group = await this.#groups.findById(groupId);
      const samlProvider = await this.#samlProviders.findByGroupId(groupId);
      if (!group || !samlProvider) throw new NotFoundError('Link');
      await this.#store.updateIdentity(identity, { linkConfirmedAt: new Date() });
      if (identity.active) await this.#grantAccess({ group, samlProvider }, { identity, user }, { userCreated: false, reactivated: false });
    });
  }

  /** The account's owner refuses the link: the group's identity provider forgets the account. */
  async declineLink(caller: AuthenticatedCaller, groupId: number): Promise<void> {
    await this.#em.transactional(async () => {
      await this.#store.deleteIdentity(await this.#requirePendingLink(caller, groupId));
    });
  }

  async #requirePendingLink(caller: AuthenticatedCaller, groupId: number): Promise<ScimIdentity> {
    const identity = await this.#store.findIdentityOfUser(groupId, caller.userId);
    if (!identity || identity.linkConfirmedAt) throw new NotFoundError('Link');
    return identity;
  }

  async #deactivate(context: ScimContext, provisioned: ProvisionedUser): Promise<void> {
    await this.#store.updateIdentity(provisioned.identity, { active: false });
    // An account whose owner never agreed was never given access, nor may losing it cost them any.
    if (!provisioned.identity.linkConfirmedAt) return;
    await this.#revokeAccess(context, provisioned.user);
    recordEvent(
      this.#em,
      scimUserDeprovisionedEvent({
        group: context.group,
        user: provisioned.user,
        externUid: provisioned.identity.externUid,
        reason: 'deactivated',
      }),
    );
  }

  async #reactivate(context: ScimContext, identity: ScimIdentity): Promise<ProvisionedUser> {
    const user = await this.#userOf(identity);
    await this.#store.updateIdentity(identity, { active: true });
    if (identity.linkConfirmedAt) await this.#grantAccess(context, { identity, user }, { userCreated: false, reactivated: true });
    return { identity, user };
  }

  async #grantAccess(context: ScimContext, { identity, user }: ProvisionedUser, how: { userCreated: boolean; reactivated: boolean }) {
    await this.#store.linkSamlIdentity({ userId: user.id, samlProviderId: context.samlProvider.id, externUid: identity.externUid });
    await this.#groups.addMember({ group: context.group, userId: user.id, accessLevel: PROVISIONED_ACCESS_LEVEL });
    recordEvent(this.#em, scimUserProvisionedEvent({ group: context.group, user, externUid: identity.externUid, ...how }));
  }

  async #revokeAccess(context: ScimContext, user: User): Promise<void> {
    await this.#store.unlinkSamlIdentity({ userId: user.id, samlProviderId: context.samlProvider.id });
    await this.#groups.removeMember({ group: context.group, userId: user.id });
  }

  /**
   * `userName` is matched as GitLab matches it: as an external UID first, then as a username,
   * then, for an email address, as the email and as the username its local part became.
   */
  async #findByFilter(groupId: number, filter: ScimUserFilter): Promise<ScimIdentity | null> {
    const byExternUid = await this.#store.findIdentity(groupId, filter.value);
    if (filter.attribute === 'externalId' || byExternUid) return byExternUid;
    const candidates = [() => this.#users.findByUsername(filter.value)];
    if (looksLikeEmail(filter.value)) {
      candidates.push(
        () => this.#users.findByEmail(filter.value),
        () => this.#users.findByUsername(filter.value.replace(/@.*$/, '')),
      );
    }
    for (const candidate of candidates) {
      const user = await candidate();
      const identity = user ? await this.#store.findIdentityOfUser(groupId, user.id) : null;
      if (identity) return identity;
    }
    return null;
  }

  async #requireIdentity(context: ScimContext, externUid: string): Promise<ScimIdentity> {
    const identity = await this.#store.findIdentity(context.group.id, externUid);
    if (!identity) throw new ScimNotFoundError(`Resource ${externUid} not found`);
    return identity;
  }

  async #userOf(identity: ScimIdentity): Promise<User> {
    const user = await this.#users.findById(identity.userId);
    // The user's removal cascades to their SCIM identities, so this is a race with that removal.
    if (!user) throw new ScimNotFoundError(`Resource ${identity.externUid} not found`);
    return user;
  }

  async #withUsers(identities: ScimIdentity[]): Promise<ProvisionedUser[]> {
    const users = new Map((await this.#users.findByIds(identities.map((identity) => identity.userId))).map((user) => [user.id, user]));
    return identities.flatMap((identity) => {
      const user = users.get(identity.userId);
      return user ? [{ identity, user }] : [];
    });
  }
}
