import {
  InterceptingCall,
  Metadata,
  ResponderBuilder,
  ServerInterceptingCall,
  ServerListenerBuilder,
  status,
  type Interceptor,
  type ServerInterceptor,
} from '@grpc/grpc-js';
import {
  anonymousCaller,
  CALLER_HEADER,
  hasScope,
  scopesGranting,
  signCaller,
  verifyCaller,
  type Caller,
  type RouteScope,
} from '@platform/auth';
import { ForbiddenError, InsufficientScopeError } from '@platform/errors';
import { errorToGrpcStatus } from './status-mapping.ts';

/** The metadata key of the signed caller: the same token, bound to the gRPC method, as the gateway's HTTP header. */
export const CALLER_METADATA = CALLER_HEADER;

/** Callers that `callUnary` hands to the signing interceptor, by the metadata object of the call. */
const pendingCallers = new WeakMap<Metadata, Caller>();
/** Callers the server verified, by the metadata object its handlers receive. */
const verifiedCallers = new WeakMap<Metadata, Caller>();

/** Remembers on whose behalf a call is made, for `internalClientOptions`' interceptor to sign. */
export function metadataActingFor(caller: Caller | undefined): Metadata {
  const metadata = new Metadata();
  if (caller) pendingCallers.set(metadata, caller);
  return metadata;
}

/**
 * Client options that sign every call with the internal secret: the caller the call acts for
 * (anonymous when a service asks on its own behalf), bound to the method's path. Servers started
 * with `startGrpcServer` refuse calls without it.
 */
export function internalClientOptions(options: { internalSecret: string }): { interceptors: Interceptor[] } {
  const signing: Interceptor = (callOptions, nextCall) =>
    new InterceptingCall(nextCall(callOptions), {
      start(metadata, listener, next) {
        const caller = pendingCallers.get(metadata) ?? anonymousCaller();
        const path = callOptions.method_definition.path;
        metadata.set(CALLER_METADATA, signCaller(caller, options.internalSecret, { method: 'POST', path }));
        next(metadata, listener);
      },
    });
  return { interceptors: [signing] };
}

/** Services every probe may call without credentials: they reveal nothing but liveness. */
const OPEN_SERVICES = ['/grpc.health.v1.Health/'];

/**
 * Which token scopes let a call act for a user, as a route's `scope` does for HTTP: any one of
 * the listed endpoint scopes (a read RPC serves API reads and git reads alike), or `internal` for
 * an RPC only services may call on their own behalf, never acting for a user.
 */
export type RpcScope = readonly RouteScope[] | 'internal';

/**
 * Refuses a user's call that its token's scopes do not cover, as GitLab refuses the request that
 * led to it: PERMISSION_DENIED carrying `insufficient_scope` and the scopes that would do.
 * Calls a service makes on its own behalf (anonymous) are not scoped.
 */
export function requireRpcScope(caller: Caller, scope: RpcScope): void {
  if (caller.kind !== 'user') return;
  if (scope === 'internal') throw new ForbiddenError('only services may call this method, on their own behalf');
  if (scope.some((granting) => hasScope(caller, granting))) return;
  throw new InsufficientScopeError([...new Set(scope.flatMap((granting) => scopesGranting(granting)))]);
}

/**
 * Refuses, with UNAUTHENTICATED, every call that does not carry a caller signed with the
 * internal secret for exactly this method, and with PERMISSION_DENIED a user's call whose token
 * scopes do not cover the method's (`scopes`, by method path); remembers the verified caller for
 * the handler. A method without a declared scope is refused, so none is left open by omission.
 */
export function internalCredentialsInterceptor(internalSecret: string, scopes: ReadonlyMap<string, RpcScope>): ServerInterceptor {
  return (methodDescriptor, call) => {
    if (OPEN_SERVICES.some((prefix) => methodDescriptor.path.startsWith(prefix))) return new ServerInterceptingCall(call);
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const [header] = metadata.get(CALLER_METADATA);
        let caller: Caller;
        try {
          caller = verifyCaller(typeof header === 'string' ? header : undefined, internalSecret, {
            method: 'POST',
            path: methodDescriptor.path,
          });
        } catch (error) {
          call.sendStatus({ code: status.UNAUTHENTICATED, details: error instanceof Error ? error.message : 'unauthenticated' });
          return;
        }
        const scope = scopes.get(methodDescriptor.path) ?? 'internal';
        try {
          requireRpcScope(caller, scope);
        } catch (error) {
          call.sendStatus(errorToGrpcStatus(error));
          return;
        }
        verifiedCallers.set(metadata, caller);
        next(metadata);
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}

/** The caller a server handler acts for: only ever the one the interceptor verified. */
export function verifiedCallerOf(metadata: Metadata): Caller | undefined {
  return verifiedCallers.get(metadata);
}
