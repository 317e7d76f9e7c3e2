import { Metadata, status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import type { Caller } from '@platform/auth';
import type { Logger } from '@platform/logger';
import { verifiedCallerOf } from './internal-credentials.ts';
import { errorToGrpcStatus } from './status-mapping.ts';

/**
 * Adapts an async function to a grpc-js unary handler, mapping domain errors to statuses. The
 * handler learns whom the call acts for from the caller the server verified, never from the request.
 */
export function unaryHandler<Request, Response>(
  logger: Logger,
  handler: (request: Request, context: { caller: Caller }) => Promise<Response>,
): (call: ServerUnaryCall<Request, Response>, callback: sendUnaryData<Response>) => void {
  return (call, callback) => {
    const caller = verifiedCallerOf(call.metadata);
    if (!caller) {
      callback({ code: status.UNAUTHENTICATED, details: 'missing caller', metadata: new Metadata() });
      return;
    }
    handler(call.request, { caller }).then(
      (response) => callback(null, response),
      (error: unknown) => {
        const mapped = errorToGrpcStatus(error);
        if (mapped.code === status.INTERNAL) logger.error({ err: error, path: call.getPath() }, 'gRPC handler failed');
        callback({ code: mapped.code, details: mapped.details, metadata: new Metadata() });
      },
    );
  };
}
