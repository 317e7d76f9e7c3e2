export { CALLER_HEADER, signCaller, verifyCaller, anonymousCaller } from './caller-token.ts';
export type { Caller, AuthenticatedCaller } from './caller-token.ts';
export { hasScope, requireUser, requireAdmin } from './caller-rules.ts';
