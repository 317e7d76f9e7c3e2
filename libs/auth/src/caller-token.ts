import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { UnauthorizedError } from '@platform/errors';

/** The header in which the gateway tells a service who is calling. */
export const CALLER_HEADER = 'x-platform-caller';

export interface AuthenticatedCaller {
  kind: 'user';
  userId: number;
  username: string;
  name: string;
  isAdmin: boolean;
  /** Scopes of the token used (`api`, `read_user`, ...). */
  scopes: string[];
  /** Set when an administrator acts as this user through `sudo`. */
  impersonatorId?: number;
  /** The personal access token used, for `/personal_access_tokens/self`. */
  tokenId?: number;
  ip?: string;
}

/**
 * A deploy token: no user, so the API sees nobody (the gateway accepts deploy tokens only where
 * GitLab does: git over HTTP and the package and container registries). The service of such a
 * route decides what its scopes allow on the token's project, or on any project of its group.
 */
export interface DeployTokenCaller {
  id: number;
  username: string;
  scopes: string[];
  projectId: number | null;
  groupId: number | null;
}

export type Caller = AuthenticatedCaller | { kind: 'anonymous'; ip?: string; deployToken?: DeployTokenCaller };

export function anonymousCaller(ip?: string): Caller {
  return ip ? { kind: 'anonymous', ip } : { kind: 'anonymous' };
}

/** The deploy token a caller presented, if any. */
export function deployTokenOf(caller: Caller): DeployTokenCaller | undefined {
  return caller.kind === 'anonymous' ? caller.deployToken : undefined;
}

/**
 * Whether the deploy token reaches the project (by id and its namespace's ancestors, top-level
 * first) with a scope: its own project, or any project of its group or the group's subgroups.
 */
export function deployTokenCovers(token: DeployTokenCaller, project: { id: number; namespaceIds: number[] }, scope: string): boolean {
  if (!token.scopes.includes(scope)) return false;
  if (token.projectId !== null) return token.projectId === project.id;
  return token.groupId !== null && project.namespaceIds.includes(token.groupId);
}

/**
 * The one request a signed caller is good for: an HTTP method and path (without the query), or
 * `POST` and the full method name of a gRPC call. A captured header cannot be replayed elsewhere.
 */
export interface CallerBinding {
  method: string;
  path: string;
}

/**
 * How long a signed caller stays valid unless its signer says otherwise: long enough to cross one
 * hop, short enough to make replay useless.
 */
export const CALLER_DEFAULT_VALIDITY_MS = 10_000;
/** How far the clocks of different hosts may disagree: about `iat` in the future and `exp` in the past. */
export const CALLER_CLOCK_SKEW_MS = 2_000;

interface SignedPayload {
  caller: Caller;
  /** Issued at, in milliseconds. */
  iat: number;
  /**
   * Valid until, in milliseconds: as long as the signer waits for the answer. A request that sat in
   * a busy service's queue while the signer still waited is not refused for its age.
   */
  exp: number;
  method: string;
  path: string;
}

export interface SigningOptions {
  /** How long the signer waits for the answer to this request; `CALLER_DEFAULT_VALIDITY_MS` unless given. */
  validForMs?: number;
  now?: number;
}

const secretKeys = new Map<string, KeyObject>();

/** The secret as a key, made once: keyed by a string, every HMAC would convert it again (a third of its cost). */
function keyOf(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (key === undefined) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    secretKeys.set(secret, key);
  }
  return key;
}

function sign(body: string, secret: string): Buffer {
  return createHmac('sha256', keyOf(secret)).update(body).digest();
}

function pathOnly(path: string): string {
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/**
 * Encodes the caller as `<base64url json>.<base64url hmac>`. Only holders of the internal secret
 * (the gateway and the services) can sign, so a receiver trusts the header and refuses a forgery.
 */
export function signCaller(caller: Caller, secret: string, binding: CallerBinding, options: SigningOptions = {}): string {
  const now = options.now ?? Date.now();
  const payload: SignedPayload = {
    caller,
    iat: now,
    exp: now + (options.validForMs ?? CALLER_DEFAULT_VALIDITY_MS),
    method: binding.method.toUpperCase(),
    path: pathOnly(binding.path),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(body, secret).toString('base64url')}`;
}

function decodePayload(body: string): SignedPayload {
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<SignedPayload>;
    if (
      typeof payload.iat === 'number' &&
      typeof payload.exp === 'number' &&
      typeof payload.method === 'string' &&
      typeof payload.path === 'string' &&
      payload.caller
    ) {
      return payload as SignedPayload;
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw new UnauthorizedError('malformed caller');
}

/**
 * The caller of a header `signCaller` made for this request. The signature is checked (one HMAC
 * with the key made once, compared in constant time) before the payload is decoded and parsed,
 * once; a header of any other shape than `<body>.<signature>` is refused as malformed.
 */
export function verifyCaller(header: string | undefined, secret: string, binding: CallerBinding, options: { now?: number } = {}): Caller {
  if (!header) throw new UnauthorizedError('missing caller');
  const dot = header.indexOf('.');
  if (dot <= 0 || dot === header.length - 1 || header.includes('.', dot + 1)) throw new UnauthorizedError('malformed caller');
  const body = header.slice(0, dot);
  const expected = sign(body, secret);
  const given = Buffer.from(header.slice(dot + 1), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new UnauthorizedError('forged caller');
  }
  const payload = decodePayload(body);
  const now = options.now ?? Date.now();
  if (now > payload.exp + CALLER_CLOCK_SKEW_MS) throw new UnauthorizedError('expired caller');
  if (payload.iat > now + CALLER_CLOCK_SKEW_MS) throw new UnauthorizedError('caller issued in the future');
  if (payload.method !== binding.method.toUpperCase() || payload.path !== pathOnly(binding.path)) {
    throw new UnauthorizedError('caller signed for another request');
  }
  return payload.caller;
}
