import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { NotFoundError, RefusedError, UnauthorizedError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import type { MemberStore } from '../members/members-store.ts';
import type { MembersService, MembershipSource } from '../members/members-service.ts';
import type { PersonalAccessToken } from '../tokens/personal-access-token.entity.ts';
import type { TokensService } from '../tokens/tokens-service.ts';
import { userCreatedEvent } from '../users/users.events.ts';
import type { UserStore } from '../users/users-store.ts';

/** `project` or `group`: what GitLab calls the token's resource type. */
export type ResourceType = 'project' | 'group';

/** A project or group access token with the role its bot holds there. */
export interface ResourceAccessToken {
  token: PersonalAccessToken;
  accessLevel: number;
  resourceType: ResourceType;
  resourceId: number;
}

export interface CreateResourceAccessTokenInput {
  name: string;
  description?: string | undefined;
  scopes: string[];
  expiresAt?: string | undefined;
  accessLevel: number;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Project and group access tokens, as GitLab's: each token has a bot user of its own
 * (`project_<id>_bot_<hex>`), a member of the project or group with the token's role, and the token
 * acts as that bot wherever a personal access token acts as its user. Maintainers manage a
 * project's tokens, owners a group's; nobody grants a role above their own.
 */
export class ResourceAccessTokensService {
  readonly #em: EntityManager;
  readonly #tokens: TokensService;
  readonly #users: UserStore;
  readonly #members: MembersService;
  readonly #memberStore: MemberStore;
  readonly #access: AccessPolicy;
  /** The host of the bots' no-reply addresses. */
  readonly #host: string;

  constructor(options: {
    em: EntityManager;
    tokens: TokensService;
    users: UserStore;
    members: MembersService;
    memberStore: MemberStore;
    access: AccessPolicy;
    externalUrl: string;
  }) {
    this.#em = options.em;
    this.#tokens = options.tokens;
    this.#users = options.users;
    this.#members = options.members;
    this.#memberStore = options.memberStore;
    this.#access = options.access;
    this.#host = new URL(options.externalUrl).hostname;
  }

  /** The resource behind `:id` (404 when invisible) and whether the caller manages its tokens. */
  async #resource(caller: AuthenticatedCaller, type: ResourceType, idOrPath: number | string) {
    const viewer = await this.#access.viewerOf(caller);
    const { source, accessLevel } = await this.#members.source(viewer, type === 'project' ? 'Project' : 'Group', idOrPath);
    const level = isAdmin(viewer) ? ACCESS_LEVEL.OWNER : accessLevel;
    const manages = level >= (type === 'project' ? ACCESS_LEVEL.MAINTAINER : ACCESS_LEVEL.OWNER);
    return { viewer, source, level, manages };
  }

  async list(options: {
    caller: AuthenticatedCaller;
    type: ResourceType;
    idOrPath: number | string;
    state?: 'active' | 'inactive' | undefined;
    window: PageWindow;
  }): Promise<Page<ResourceAccessToken>> {
    const { source, manages } = await this.#resource(options.caller, options.type, options.idOrPath);
    // GitLab answers 401 to a member who may not read the tokens.
    if (!manages) throw new UnauthorizedError();
    const page = await this.#tokens.listOf({ resource: { type: options.type, id: source.id } }, options.state, options.window);
    return { ...page, items: await this.#withLevels(source, page.items) };
  }

  async get(options: { caller: AuthenticatedCaller; type: ResourceType; idOrPath: number | string; tokenId: number }) {
    const { source, manages } = await this.#resource(options.caller, options.type, options.idOrPath);
    if (!manages) throw new UnauthorizedError();
    const [token] = await this.#withLevels(source, [await this.#token(source, options.type, options.tokenId)]);
    return token as ResourceAccessToken;
  }

  async create(options: {
    caller: AuthenticatedCaller;
    type: ResourceType;
    idOrPath: number | string;
    input: CreateResourceAccessTokenInput;
  }): Promise<ResourceAccessToken & { plain: string }> {
    const { type, input, caller } = options;
    const { source, level, manages } = await this.#resource(caller, type, options.idOrPath);
    const creator = await this.#users.findById(caller.userId);
    // A token's bot creates no tokens, as GitLab's: its service answers 400 with this.
    if (!manages || !creator || creator.userType === 'project_bot') {
      throw new RefusedError(`400 Bad request - User does not have permission to create ${type} access token`);
    }
    if (input.accessLevel > level)
      throw new RefusedError('400 Bad request - Access level of the token contains permissions not held by the creating user');
    if (input.expiresAt !== undefined && input.expiresAt <= today())
      throw new RefusedError('400 Bad request - Expiration date must be in the future');
    return this.#em.transactional(async (em) => {
      const username = `${type}_${source.id}_bot_${randomBytes(16).toString('hex')}`;
      const bot = await this.#users.insert(
        {
          username,
          email: `${username}@noreply.${this.#host}`,
          name: input.name,
          userType: 'project_bot',
          confirmedAt: new Date(),
          projectsLimit: 0,
          canCreateGroup: false,
          external: creator.external,
        },
        [],
      );
      recordEvent(em, { ...userCreatedEvent(bot), actor: actorOf(caller) });
      await this.#members.addMember({ source, userId: bot.id, accessLevel: input.accessLevel, actor: actorOf(caller) });
      const { token, plain } = await this.#tokens.issue(em, {
        user: bot,
        actor: caller,
        token: {
          userId: bot.id,
          name: input.name,
          description: input.description ?? null,
          scopes: input.scopes,
          expiresAt: input.expiresAt ?? null,
          resourceType: type,
          resourceId: source.id,
          accessLevel: input.accessLevel,
        },
      });
      return { token, plain, accessLevel: input.accessLevel, resourceType: type, resourceId: source.id };
    });
  }

  /** Revokes the token and ends its bot's membership; answers the bot's id, whose authentications end. */
  async revoke(options: { caller: AuthenticatedCaller; type: ResourceType; idOrPath: number | string; tokenId: number }): Promise<number> {
    const { type, caller } = options;
    const { source, manages } = await this.#resource(caller, type, options.idOrPath);
    const token = await this.#token(source, type, options.tokenId);
    const bot = await this.#users.findById(token.userId);
    if (!manages) throw new RefusedError(`400 Bad request - ${caller.name} cannot delete ${bot?.name ?? token.name}`);
    await this.#em.transactional(async () => {
      await this.#tokens.revokeToken(caller, token);
      await this.#members.removeMember({ source, userId: token.userId, actor: actorOf(caller) });
    });
    return token.userId;
  }

  /** Revokes the token and issues its successor for the same bot, a week of life unless `expiresAt` says otherwise. */
  async rotate(options: {
    caller: AuthenticatedCaller;
    type: ResourceType;
    idOrPath: number | string;
    tokenId: number;
    expiresAt?: string | undefined;
  }): Promise<ResourceAccessToken & { plain: string }> {
    const { type, caller } = options;
    const { source, level, manages } = await this.#resource(caller, type, options.idOrPath);
    // Only administrators learn whether the token exists, as GitLab's.
    if (!manages) throw new UnauthorizedError();
    const [old] = await this.#withLevels(source, [await this.#token(source, type, options.tokenId)]);
    if (!old) throw new NotFoundError();
    if (old.accessLevel > level)
      throw new RefusedError('400 Bad request - Not eligible to rotate token with access level higher than the user');
    const { token, plain } = await this.#tokens.rotateToken(caller, old.token, options.expiresAt);
    return { token, plain, accessLevel: old.accessLevel, resourceType: type, resourceId: source.id };
  }

  async #token(source: MembershipSource, type: ResourceType, tokenId: number): Promise<PersonalAccessToken> {
    const token = await this.#tokens.findOf({ resource: { type, id: source.id } }, tokenId);
    if (!token) throw new NotFoundError(`${type === 'project' ? 'Project' : 'Group'} Access Token`);
    return token;
  }

  /** The role each token's bot holds in the resource now; the role it was given once the bot left. */
  async #withLevels(source: MembershipSource, tokens: PersonalAccessToken[]): Promise<ResourceAccessToken[]> {
    const userIds = [...new Set(tokens.map((token) => token.userId))];
    const members =
      userIds.length === 0
        ? []
        : (await this.#memberStore.listDirect(source.type, source.id, { userIds }, { offset: 0, limit: userIds.length })).items;
    const levels = new Map(members.map(({ member }) => [member.userId, member.accessLevel]));
    return tokens.map((token) => ({
      token,
      accessLevel: levels.get(token.userId) ?? token.accessLevel ?? 0,
      resourceType: source.type === 'Project' ? 'project' : 'group',
      resourceId: source.id,
    }));
  }
}
