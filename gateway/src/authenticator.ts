import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Caller, DeployTokenCaller } from '@platform/auth';
import { UnavailableError } from '@platform/errors';
import { callUnary } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import type { AuthenticateResponse, IdentityServiceClient } from '@platform/proto/identity/v1';

type AuthenticatedCaller = Extract<Caller, { kind: 'user' }>;

/** The credentials GitLab accepts on its REST API. */
export function credentialsOf(req: IncomingMessage, query: URLSearchParams): { token?: string; sudo?: string } {
  const header = req.headers['private-token'];
  const bearer = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  const token =
    (typeof header === 'string' ? header : undefined) ?? bearer ?? query.get('private_token') ?? query.get('access_token') ?? undefined;
  const sudoHeader = req.headers.sudo;
  const sudo = (typeof sudoHeader === 'string' ? sudoHeader : undefined) ?? query.get('sudo') ?? undefined;
  return { ...(token ? { token } : {}), ...(sudo ? { sudo } : {}) };
}

/**
 * Git's credentials: HTTP Basic with any username (`oauth2`, say) and a personal access token as
 * password, or a deploy token's username and the token.
 */
export function basicCredentialsOf(req: IncomingMessage): { token?: string; username?: string } {
  const encoded = req.headers.authorization?.match(/^Basic\s+(\S+)$/i)?.[1];
  if (!encoded) return {};
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  return password ? { token: password, username: decoded.slice(0, colon) } : {};
}

/**
 * A deploy token where the registries take one, as GitLab finds it: the `Deploy-Token` header, the
 * bearer token (npm's `_authToken`), or the HTTP Basic password (Maven, with the token's username).
 */
export function deployTokenCredentialsOf(req: IncomingMessage): { token?: string; username?: string } {
  const header = req.headers['deploy-token'];
  if (typeof header === 'string' && header) return { token: header };
  const bearer = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (bearer) return { token: bearer };
  return basicCredentialsOf(req);
}

interface CacheEntry {
  caller: AuthenticatedCaller;
  /** Until then the entry is used without asking identity. */
  freshUntil: number;
}

export interface AuthenticatorOptions {
  client: IdentityServiceClient;
  /** How long an answer is used without asking identity again, while the invalidation feed is live. 0 turns caching off. */
  ttlMs: number;
  /** How long past that an answer still serves while identity cannot be reached. */
  staleMs?: number;
  /** True while identity's change events reach the gateway; otherwise answers stay fresh for at most a second. */
  invalidationLive?: () => boolean;
  logger?: Logger;
  now?: () => number;
}

/** Without the invalidation feed, a block or revocation must still take effect within this. */
const UNINVALIDATED_TTL_MS = 1000;
/** While an answer is at hand, identity gets this long to confirm it before the stale answer serves. */
const REVALIDATION_DEADLINE_MS = 500;
/** Without one, identity gets this long to answer; past it the caller gets 503 rather than a hang. */
const AUTHENTICATION_DEADLINE_MS = 2000;

function nextUtcMidnight(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}

/**
 * Resolves tokens to callers through identity's `Authenticate`, remembering each answer: the
 * gateway must not cost a gRPC round trip per request. An answer is fresh for `ttlMs` (1 s unless
 * identity's change events reach the gateway, which then drops a user's answers the moment they
 * are blocked, demoted or lose a token); after that it is checked with identity again, and while
 * identity cannot be reached it keeps serving for `staleMs` (stale-while-revalidate), so other
 * services stay usable. A refusal from identity always wins and drops the answer. No answer
 * outlives the UTC day it was given in, when token expiry dates turn over.
 */
export class Authenticator {
  readonly #client: IdentityServiceClient;
  readonly #ttlMs: number;
  readonly #invalidationLive: () => boolean;
  readonly #now: () => number;
  readonly #logger: Logger | undefined;
  readonly #cache: LRUCache<string, CacheEntry> | undefined;
  /** Cache keys by the user ids they involve (the caller and a sudo impersonator). */
  readonly #keysByUser = new Map<number, Set<string>>();
  /**
   * The users forgotten while each question to identity was pending: an answer given before a
   * revocation or block must not be cached after the cache forgot that user.
   */
  readonly #forgottenWhileAsking = new Set<Set<number>>();

  constructor(options: AuthenticatorOptions) {
    this.#client = options.client;
    this.#ttlMs = options.ttlMs;
    this.#invalidationLive = options.invalidationLive ?? (() => false);
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
    this.#cache =
      options.ttlMs > 0
        ? new LRUCache<string, CacheEntry>({
            max: 50_000,
            ttl: options.ttlMs + (options.staleMs ?? 300_000),
            ttlResolution: 0,
            perf: { now: () => this.#now() },
            dispose: (entry, key) => this.#unindex(entry.caller, key),
          })
        : undefined;
  }

  /** Drops every answer that involves the user, e.g. when identity reports them blocked. */
  forgetUser(userId: number): void {
    for (const key of [...(this.#keysByUser.get(userId) ?? [])]) this.#cache?.delete(key);
    for (const forgotten of this.#forgottenWhileAsking) forgotten.add(userId);
  }

  async authenticate(token: string, sudo: string | undefined): Promise<AuthenticatedCaller> {
    // One-shot: a Hash object per request cost more than twice as much.
    const key = hash('sha256', `${token}\0${sudo ?? ''}`, 'base64');
    const cached = this.#cache?.get(key);
    const now = this.#now();
    if (cached && now < cached.freshUntil) return cached.caller;
    let response: AuthenticateResponse;
    const forgotten = new Set<number>();
    this.#forgottenWhileAsking.add(forgotten);
    try {
      response = await this.#ask(token, sudo, cached ? REVALIDATION_DEADLINE_MS : AUTHENTICATION_DEADLINE_MS);
    } catch (error) {
      if (cached && error instanceof UnavailableError) {
        this.#logger?.warn({ err: error, userId: cached.caller.userId }, 'identity unreachable; serving a recent authentication');
        // Ask again in a second rather than making every request wait for the revalidation deadline.
        cached.freshUntil = this.#now() + UNINVALIDATED_TTL_MS;
        return cached.caller;
      }
      this.#cache?.delete(key);
      throw error;
    } finally {
      this.#forgottenWhileAsking.delete(forgotten);
    }
    const user = response.user;
    if (!user) throw new Error('identity answered Authenticate without a user');
    const caller: AuthenticatedCaller = {
      kind: 'user',
      userId: user.id,
      username: user.username,
      name: user.name,
      isAdmin: user.isAdmin,
      scopes: response.scopes,
      ...(response.impersonatorId ? { impersonatorId: response.impersonatorId } : {}),
      ...(response.tokenId ? { tokenId: response.tokenId } : {}),
    };
    if (this.#cache && !this.#usersOf(caller).some((userId) => forgotten.has(userId))) {
      const answeredAt = this.#now();
      const freshFor = this.#invalidationLive() ? this.#ttlMs : Math.min(this.#ttlMs, UNINVALIDATED_TTL_MS);
      const lifetime = Math.min(this.#cache.ttl, nextUtcMidnight(answeredAt) - answeredAt);
      this.#cache.set(key, { caller, freshUntil: answeredAt + Math.min(freshFor, lifetime) }, { ttl: lifetime });
      for (const userId of this.#usersOf(caller)) {
        const keys = this.#keysByUser.get(userId) ?? new Set<string>();
        keys.add(key);
        this.#keysByUser.set(userId, keys);
      }
    }
    return caller;
  }

  /**
   * A deploy token, asked of identity on every use and never cached: git and registry clients make
   * a few requests per operation, and a revoked, deleted or expired token is refused at once.
   */
  async authenticateDeployToken(token: string, username: string | undefined): Promise<DeployTokenCaller> {
    const response = await callUnary(
      this.#client.authenticateDeployToken.bind(this.#client),
      { token, username: username ?? '' },
      { deadlineMs: AUTHENTICATION_DEADLINE_MS },
    );
    return {
      id: response.id,
      username: response.username,
      scopes: response.scopes,
      projectId: response.projectId || null,
      groupId: response.groupId || null,
    };
  }

  #ask(token: string, sudo: string | undefined, deadlineMs: number): Promise<AuthenticateResponse> {
    return callUnary(this.#client.authenticate.bind(this.#client), { token, sudo: sudo ?? '' }, { deadlineMs });
  }

  #usersOf(caller: AuthenticatedCaller): number[] {
    return caller.impersonatorId ? [caller.userId, caller.impersonatorId] : [caller.userId];
  }

  #unindex(caller: AuthenticatedCaller, key: string): void {
    for (const userId of this.#usersOf(caller)) {
      const keys = this.#keysByUser.get(userId);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysByUser.delete(userId);
    }
  }
}
