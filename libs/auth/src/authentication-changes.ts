/**
 * The internal response header in which the service that owns users names those whose
 * authentication a request changed (a token revoked or rotated, a user blocked, deleted or
 * updated). The gateway that proxied the request forgets what it cached about them before it
 * answers, and takes the header out; other gateways learn it from the change's event.
 */
export const AUTHENTICATION_CHANGED_HEADER = 'x-platform-authentication-changed';

/** The response headers that name `userIds`. */
export function authenticationChanged(userIds: number[]): Record<string, string> {
  return { [AUTHENTICATION_CHANGED_HEADER]: userIds.join(',') };
}

/** The user ids a response's header names; anything that is not a positive integer is left out. */
export function usersWithChangedAuthentication(header: string | string[] | undefined): number[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values
    .flatMap((value) => value.split(','))
    .map((id) => Number(id.trim()))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}
