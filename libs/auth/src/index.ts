export {
  CALLER_HEADER,
  CALLER_DEFAULT_VALIDITY_MS,
  CALLER_CLOCK_SKEW_MS,
  signCaller,
  verifyCaller,
  anonymousCaller,
  deployTokenOf,
  deployTokenCovers,
} from './caller-token.ts';
export type { Caller, AuthenticatedCaller, CallerBinding, DeployTokenCaller, SigningOptions } from './caller-token.ts';
export { requireUser, requireAdmin, requireCurrentAdmin, actorOf } from './caller-rules.ts';
export type { Actor, AdministratorCheck } from './caller-rules.ts';
export { TOKEN_SCOPES, scopesGranting, hasScope, requireScope, requireSudoScope } from './token-scopes.ts';
export type { TokenScope, RouteScope } from './token-scopes.ts';
export { AUTHENTICATION_CHANGED_HEADER, authenticationChanged, usersWithChangedAuthentication } from './authentication-changes.ts';
