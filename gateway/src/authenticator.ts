import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Caller } from '@platform/auth';
import { callUnary } from '@platform/grpc';
import type { IdentityServiceClient } from '@platform/proto/identity/v1';

type AuthenticatedCaller = Extract<Caller, { kind: 'user' }>;

/** The credentials GitLab accepts on its REST API. */
export function credentialsOf(req: IncomingMessage, url: URL): { token?: string; sudo?: string } {
  const header = req.headers['private-token'];
  const bearer = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  const token =
    (typeof header === 'string' ? header : undefined) ??
    bearer ??
    url.searchParams.get('private_token') ??
    url.searchParams.get('access_token') ??
    undefined;
  const sudoHeader = req.headers.sudo;
  const sudo = (typeof sudoHeader === 'string' ? sudoHeader : undefined) ?? url.searchParams.get('sudo') ?? undefined;
  return { ...(token ? { token } : {}), ...(sudo ? { sudo } : {}) };
}

/**
 * Resolves tokens to callers through identity's `Authenticate`, remembering each answer for a
 * short while: the gateway must not cost a gRPC round trip per request.
 */
export class Authenticator {
  readonly #client: IdentityServiceClient;
  readonly #cache: LRUCache<string, AuthenticatedCaller> | undefined;

  constructor(options: { client: IdentityServiceClient; ttlMs: number }) {
    this.#client = options.client;
    this.#cache = options.ttlMs > 0 ? new LRUCache({ max: 50_000, ttl: options.ttlMs }) : undefined;
  }

  async authenticate(token: string, sudo: string | undefined): Promise<AuthenticatedCaller> {
    const key = createHash('sha256')
      .update(token)
      .update('\0')
      .update(sudo ?? '')
      .digest('base64');
    const cached = this.#cache?.get(key);
    if (cached) return cached;
    const response = await callUnary(this.#client.authenticate.bind(this.#client), { token, sudo: sudo ?? '' });
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
    };
    this.#cache?.set(key, caller);
    return caller;
  }
}
