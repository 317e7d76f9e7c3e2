import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, requireSudoScope, type AuthenticatedCaller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { ForbiddenError, InputError, InvalidTokenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import { identityEvents } from '@platform/identity-client';
import { User } from '../users/user.entity.ts';
import type { UserStore } from '../users/users-store.ts';
import { PersonalAccessToken } from './personal-access-token.entity.ts';
import { digestToken, generateToken } from './token-digest.ts';
import type { NewToken, TokenListFilter, TokenStore } from './tokens-store.ts';
import type { CreateOwnTokenParams, CreateTokenParams, TokenListParams } from './tokens.schemas.ts';

/** `last_used_at` is kept coarsely, as GitLab does: at most one write per token in this interval. */
export const LAST_USED_RESOLUTION_MS = 10 * 60_000;
/** A rotated token's lifetime when the request names no `expires_at`, as GitLab's. */
const ROTATED_LIFETIME_DAYS = 7;

export interface Authentication {
  user: User;
  scopes: string[];
  tokenId: number;
  /** The administrator behind a sudo request. */
  impersonator?: User;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function daysFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function isExpired(token: PersonalAccessToken): boolean {
  return token.expiresAt != null && token.expiresAt <= today();
}

/** Who is asking about tokens: its owner, or an administrator, who sees everybody's. */
type TokenViewer = Pick<AuthenticatedCaller, 'userId' | 'isAdmin' | 'tokenId'>;

export class TokensService {
  readonly #em: EntityManager;
  readonly #tokens: TokenStore;
  readonly #users: UserStore;
  /** Where a deactivated user signs in again, named in their tokens' refusal. */
  readonly #externalUrl: string;

  constructor(options: { em: EntityManager; tokens: TokenStore; users: UserStore; externalUrl: string }) {
    this.#em = options.em;
    this.#tokens = options.tokens;
    this.#users = options.users;
    this.#externalUrl = options.externalUrl;
  }

  /** Issues a token for a user; the plain token is returned here and never again. */
  async create(issuer: AuthenticatedCaller, input: CreateTokenParams): Promise<{ token: PersonalAccessToken; plain: string }> {
    if (input.expires_at !== undefined && input.expires_at <= today()) {
      throw new InputError('expires_at must be in the future');
    }
    return this.#em.transactional(async (em) => {
      const user = await this.#users.findById(input.user_id);
      if (!user) throw new NotFoundError('User');
      return this.issue(em, {
        user,
        actor: issuer,
        token: {
          userId: user.id,
          name: input.name,
          scopes: input.scopes,
          expiresAt: input.expires_at ?? null,
          description: input.description ?? null,
        },
      });
    });
  }

  /**
   * Stores a new token and records its creation in the same transaction: the caller's, which
   * other kinds of tokens (project and group access tokens) open around their bot and membership.
   */
  async issue(
    em: EntityManager,
    options: {
      user: Pick<User, 'id' | 'username'>;
      actor: AuthenticatedCaller;
      token: Omit<NewToken, 'tokenDigest'>;
      rotatedFromId?: number;
    },
  ): Promise<{ token: PersonalAccessToken; plain: string }> {
    const plain = generateToken();
    const token = await this.#tokens.insert({ ...options.token, tokenDigest: digestToken(plain) });
    recordEvent(em, {
      ...identityEvents.personalAccessTokenCreated.event({
        aggregateId: token.userId,
        data: {
          tokenId: token.id,
          userId: token.userId,
          username: options.user.username,
          tokenName: token.name,
          scopes: token.scopes,
          expiresAt: token.expiresAt ?? '',
          rotatedFromId: options.rotatedFromId ?? 0,
        },
      }),
      actor: actorOf(options.actor),
    });
    return { token, plain };
  }

  /**
   * Resolves a token to the acting user. `sudo` (an id or username) lets an administrator
   * act as someone else, as GitLab allows for tokens with the `sudo` scope.
   */
  async authenticate(plain: string, sudo?: string): Promise<Authentication> {
    const token = plain ? await this.#tokens.findByDigest(digestToken(plain)) : null;
    if (!token || token.revoked) throw new UnauthorizedError();
    if (isExpired(token)) throw new InvalidTokenError('Token has expired.');
    // GitLab deletes a project's or group's bots with it, and their tokens end there.
    if (
      token.resourceType &&
      token.resourceId &&
      !(await this.#tokens.resourceExists({ type: token.resourceType, id: token.resourceId }))
    ) {
      throw new UnauthorizedError();
    }
    const user = await this.#users.findById(token.userId);
    if (!user) throw new UnauthorizedError();
    if (user.state === 'deactivated') {
      throw new ForbiddenError(
        `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${this.#externalUrl}`,
      );
    }
    // Banned users are blocked users to GitLab, and told so.
    if (user.state !== 'active') throw new ForbiddenError('Your account has been blocked.');
    await this.#recordUse(token);
    if (user.lastActivityOn !== today()) await this.#users.recordActivity(user.id, today());
    if (!sudo) return { user, scopes: token.scopes, tokenId: token.id };
    if (!user.isAdmin) throw new ForbiddenError('Must be admin to use sudo');
    requireSudoScope(token.scopes);
    const target = await this.#users.findByIdOrUsername(sudo);
    if (!target) throw new NotFoundError(`User with ID or username '${sudo}'`);
    return { user: target, scopes: token.scopes, tokenId: token.id, impersonator: user };
  }

  async #recordUse(token: PersonalAccessToken): Promise<void> {
    const now = new Date();
    const unlessSince = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    if (token.lastUsedAt && token.lastUsedAt >= unlessSince) return;
    await this.#tokens.touchLastUsed(token.id, { now, unlessSince });
  }

  /** Own tokens; administrators see everybody's and may filter by owner. */
  list(viewer: TokenViewer, input: TokenListParams, window: PageWindow): Promise<Page<PersonalAccessToken>> {
    // GitLab answers 401 when somebody else's tokens are asked for without being an administrator.
    if (!viewer.isAdmin && input.user_id !== undefined && input.user_id !== viewer.userId) throw new UnauthorizedError();
    const userId = viewer.isAdmin ? input.user_id : viewer.userId;
    const filter: TokenListFilter = {
      today: today(),
      ...(userId !== undefined ? { userId } : {}),
      ...(input.state !== undefined ? { state: input.state } : {}),
      ...(input.revoked !== undefined ? { revoked: input.revoked } : {}),
      ...(input.created_before ? { createdBefore: input.created_before } : {}),
      ...(input.created_after ? { createdAfter: input.created_after } : {}),
      ...(input.last_used_before ? { lastUsedBefore: input.last_used_before } : {}),
      ...(input.last_used_after ? { lastUsedAfter: input.last_used_after } : {}),
      ...(input.search ? { search: input.search } : {}),
    };
    // Impersonation tokens are administrators' business: their users never see them.
    return this.#tokens.list({ ...filter, ...(viewer.isAdmin ? {} : { impersonation: false }) }, window);
  }

  /** `self` is the token of the request itself. Somebody else's token is 404, as if it did not exist. */
  async show(viewer: TokenViewer, id: number | 'self'): Promise<PersonalAccessToken> {
    const tokenId = id === 'self' ? viewer.tokenId : id;
    const token = tokenId === undefined ? null : await this.#tokens.findById(tokenId);
    if (!token || (!viewer.isAdmin && (token.userId !== viewer.userId || (token.impersonation && id !== 'self')))) {
      throw new NotFoundError();
    }
    return token;
  }

  /** Revokes at once and answers the revoked token; the event lets every cache of authentications drop it. */
  async revoke(viewer: AuthenticatedCaller, id: number | 'self'): Promise<PersonalAccessToken> {
    return this.#em.transactional(async () => this.revokeToken(viewer, await this.show(viewer, id)));
  }

  /**
   * Revokes a token its caller has already been found allowed to revoke, in the caller's
   * transaction, and records the revocation; a token already revoked is an InputError.
   */
  async revokeToken(actor: AuthenticatedCaller, token: PersonalAccessToken): Promise<PersonalAccessToken> {
    return this.#em.transactional(async (em) => {
      if (!(await this.#tokens.revoke(token.id))) throw new InputError('Token already revoked');
      recordEvent(em, { ...this.#revokedEvent(token, await this.#ownerOf(token)), actor: actorOf(actor) });
      return token;
    });
  }

  /** Revokes the token and issues its successor with the same name and scopes; the value is shown once. */
  async rotate(
    viewer: AuthenticatedCaller,
    id: number | 'self',
    expiresAt?: string,
  ): Promise<{ token: PersonalAccessToken; plain: string }> {
    return this.#em.transactional(async () => this.rotateToken(viewer, await this.show(viewer, id), expiresAt));
  }

  /**
   * Rotates a token its caller has already been found allowed to rotate: the successor keeps the
   * name, scopes, and what the token is (impersonation, a project's or group's).
   */
  async rotateToken(
    actor: AuthenticatedCaller,
    old: PersonalAccessToken,
    expiresAt?: string,
  ): Promise<{ token: PersonalAccessToken; plain: string }> {
    if (expiresAt !== undefined && expiresAt <= today()) throw new InputError('expires_at must be in the future');
    return this.#em.transactional(async (em) => {
      await this.revokeToken(actor, old);
      return this.issue(em, {
        user: await this.#ownerOf(old),
        actor,
        token: {
          userId: old.userId,
          name: old.name,
          description: old.description ?? null,
          scopes: old.scopes,
          expiresAt: expiresAt ?? daysFromToday(ROTATED_LIFETIME_DAYS),
          impersonation: old.impersonation,
          resourceType: old.resourceType ?? null,
          resourceId: old.resourceId ?? null,
          accessLevel: old.accessLevel ?? null,
        },
        rotatedFromId: old.id,
      });
    });
  }

  /** A token of `filter`'s kind by id, or null: what the project, group and impersonation token routes show. */
  async findOf(filter: { userId?: number; impersonation?: boolean; resource?: { type: 'project' | 'group'; id: number } }, id: number) {
    const token = await this.#tokens.findById(id);
    if (!token) return null;
    if (filter.userId !== undefined && token.userId !== filter.userId) return null;
    if (filter.impersonation !== undefined && token.impersonation !== filter.impersonation) return null;
    if (filter.resource && (token.resourceType !== filter.resource.type || token.resourceId !== filter.resource.id)) return null;
    return token;
  }

  /** Tokens of `filter`'s kind, newest first, optionally only active or inactive ones. */
  listOf(
    filter: { userId?: number; impersonation?: boolean; resource?: { type: 'project' | 'group'; id: number } },
    state: 'active' | 'inactive' | undefined,
    window: PageWindow,
  ): Promise<Page<PersonalAccessToken>> {
    return this.#tokens.list({ ...filter, today: today(), ...(state ? { state } : {}) }, window);
  }

  /** The user of `/users/:user_id/...` token routes, or GitLab's 404 for them. */
  async requireUser(userId: number): Promise<User> {
    const user = await this.#users.findById(userId);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  /** `POST /users/:user_id/impersonation_tokens`: an administrator's token acting as the user. */
  async createImpersonation(
    issuer: AuthenticatedCaller,
    input: { user_id: number; name: string; description?: string | undefined; scopes: string[]; expires_at?: string | undefined },
  ): Promise<{ token: PersonalAccessToken; plain: string }> {
    if (input.expires_at !== undefined && input.expires_at <= today()) throw new InputError('expires_at must be in the future');
    return this.#em.transactional(async (em) => {
      const user = await this.requireUser(input.user_id);
      return this.issue(em, {
        user,
        actor: issuer,
        token: {
          userId: user.id,
          name: input.name,
          description: input.description ?? null,
          scopes: input.scopes,
          expiresAt: input.expires_at ?? null,
          impersonation: true,
        },
      });
    });
  }

  /** `POST /user/personal_access_tokens`: a user's own token, with only the scopes GitLab allows there. */
  createOwn(viewer: AuthenticatedCaller, input: CreateOwnTokenParams): Promise<{ token: PersonalAccessToken; plain: string }> {
    return this.create(viewer, { ...input, user_id: viewer.userId });
  }

  async #ownerOf(token: PersonalAccessToken): Promise<Pick<User, 'id' | 'username'>> {
    const owner = await this.#users.findById(token.userId);
    // A token outlives no user (they are deleted with their owner); the id alone stands in otherwise.
    return { id: token.userId, username: owner?.username ?? String(token.userId) };
  }

  #revokedEvent(token: PersonalAccessToken, owner: Pick<User, 'username'>) {
    return identityEvents.personalAccessTokenRevoked.event({
      aggregateId: token.userId,
      data: { tokenId: token.id, userId: token.userId, username: owner.username, tokenName: token.name },
    });
  }

  /**
   * Makes sure the bootstrap administrator `root` exists and that `rootToken`, when given,
   * authenticates as root. Returns the token to show when one had to be generated.
   */
  async ensureBootstrapAdmin(rootToken: string | undefined): Promise<{ generatedToken?: string }> {
    return this.#em.transactional(async (em) => {
      // Serialises replicas starting at once.
      await em.execute('select pg_advisory_xact_lock(?)', [0x726f6f74]);
      let root = await em.findOne(User, { username: 'root' });
      if (!root) {
        root = em.create(User, {
          username: 'root',
          email: 'admin@example.com',
          name: 'Administrator',
          isAdmin: true,
          confirmedAt: new Date(),
        });
        await em.flush();
      }
      const plain = rootToken ?? generateToken();
      const existing = await this.#tokens.findByDigest(digestToken(plain));
      if (existing) return {};
      if (rootToken === undefined) {
        const rootTokens = await em.count(PersonalAccessToken, { userId: root.id, name: 'bootstrap' });
        if (rootTokens > 0) return {};
      }
      await this.#tokens.insert({
        userId: root.id,
        name: 'bootstrap',
        tokenDigest: digestToken(plain),
        scopes: ['api', 'sudo', 'admin_mode'],
        expiresAt: null,
      });
      return rootToken === undefined ? { generatedToken: plain } : {};
    });
  }
}
