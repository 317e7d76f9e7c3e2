import { ResponderBuilder, ServerInterceptingCall, status, type ServerInterceptor } from '@grpc/grpc-js';
import { Histogram, type Registry } from 'prom-client';

const RPC_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Times every call the server answers into `grpc_server_handling_seconds{service, method, code}`:
 * the gRPC service (`platform.identity.v1.IdentityService`), the method, and the status code's
 * name (`OK`, `NOT_FOUND`, `UNAUTHENTICATED`). Placed innermost, it also sees the statuses other
 * interceptors answer with (refused credentials).
 */
export function rpcDurationInterceptor(registry: Registry): ServerInterceptor {
  const duration = new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Time from a gRPC call to its status, by service, method and status code.',
    labelNames: ['service', 'method', 'code'] as const,
    buckets: RPC_BUCKETS,
    registers: [registry],
  });
  return (methodDescriptor, call) => {
    // Paths are `/<package>.<Service>/<Method>`.
    const [, service = '', method = ''] = methodDescriptor.path.split('/');
    const stopTimer = duration.startTimer({ service, method });
    const responder = new ResponderBuilder()
      .withSendStatus((sent, next) => {
        stopTimer({ code: status[sent.code] ?? String(sent.code) });
        next(sent);
      })
      .build();
    return new ServerInterceptingCall(call, responder);
  };
}
