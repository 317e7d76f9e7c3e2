import { createHmac, timingSafeEqual } from 'node:crypto';
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
  ip?: string;
}

export type Caller = AuthenticatedCaller | { kind: 'anonymous'; ip?: string };

export function anonymousCaller(ip?: string): Caller {
  return ip ? { kind: 'anonymous', ip } : { kind: 'anonymous' };
}

interface SignedPayload {
  caller: Caller;
  /** Issued at, in milliseconds; bounds how long a captured header can be replayed. */
  iat: number;
}

function sign(body: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/**
 * Encodes the caller as `<base64url json>.<base64url hmac>`. Only the gateway holds the secret,
 * so a service can trust the header and refuse one forged by anybody else.
 */
export function signCaller(caller: Caller, secret: string, now: number = Date.now()): string {
  const payload: SignedPayload = { caller, iat: now };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(body, secret).toString('base64url')}`;
}

export function verifyCaller(header: string | undefined, secret: string, options: { maxAgeMs?: number; now?: number } = {}): Caller {
  if (!header) throw new UnauthorizedError('missing caller');
  const [body, signature] = header.split('.');
  if (!body || !signature) throw new UnauthorizedError('malformed caller');
  const expected = sign(body, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new UnauthorizedError('forged caller');
  }
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedPayload;
  const age = (options.now ?? Date.now()) - payload.iat;
  if (age > (options.maxAgeMs ?? 60_000)) throw new UnauthorizedError('expired caller');
  return payload.caller;
}
