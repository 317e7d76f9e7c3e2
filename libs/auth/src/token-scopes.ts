import { InsufficientScopeError } from '@platform/errors';
import type { AuthenticatedCaller } from './caller-token.ts';

/** GitLab's personal access token scopes; the ones no endpoint here checks are still accepted on tokens. */
export const TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'create_runner',
  'manage_runner',
  'k8s_proxy',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  'sudo',
  'admin_mode',
  'read_service_ping',
  'self_rotate',
] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * The scopes an endpoint can require: the API's, git over HTTP's and the container registry's;
 * `read_code` is a read of repository files, which GitLab's files API also allows `read_repository`
 * tokens (its `allow_access_with_scope :read_repository` on GET and HEAD); `self_rotate` is a
 * token's rotation of itself, which GitLab also grants `self_rotate` tokens.
 */
export type RouteScope =
  | 'api'
  | 'read_api'
  | 'read_user'
  | 'read_code'
  | 'read_repository'
  | 'write_repository'
  | 'read_registry'
  | 'write_registry'
  | 'self_rotate';

/**
 * Which token scopes grant an endpoint declared with `scope`, as GitLab documents them: `api`
 * grants everything; `read_api` every read; `read_user` the user reads; `write_*` include `read_*`.
 */
const GRANTED_BY: Record<RouteScope, TokenScope[]> = {
  api: ['api'],
  read_api: ['api', 'read_api'],
  read_user: ['api', 'read_api', 'read_user'],
  read_code: ['api', 'read_api', 'read_repository'],
  read_repository: ['api', 'read_repository', 'write_repository'],
  write_repository: ['api', 'write_repository'],
  read_registry: ['api', 'read_registry', 'write_registry'],
  write_registry: ['api', 'write_registry'],
  self_rotate: ['api', 'self_rotate'],
};

export function scopesGranting(scope: RouteScope): TokenScope[] {
  return GRANTED_BY[scope];
}

export function hasScope(caller: AuthenticatedCaller, scope: RouteScope): boolean {
  return GRANTED_BY[scope].some((granting) => caller.scopes.includes(granting));
}

/** Refuses a token whose scopes do not cover `scope`, naming the scopes that would. */
export function requireScope(caller: AuthenticatedCaller, scope: RouteScope): void {
  if (!hasScope(caller, scope)) throw new InsufficientScopeError(GRANTED_BY[scope]);
}

/** Impersonating another user needs a token with the `sudo` scope itself; `api` does not grant it. */
export function requireSudoScope(scopes: readonly string[]): void {
  if (!scopes.includes('sudo')) throw new InsufficientScopeError(['sudo']);
}
