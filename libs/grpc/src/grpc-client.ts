import { credentials, Metadata, type CallOptions, type ChannelCredentials, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { grpcErrorToDomain } from './status-mapping.ts';

export function createChannelCredentials(): ChannelCredentials {
  return credentials.createInsecure();
}

type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Response) => void,
) => ClientUnaryCall;

/**
 * Calls a unary method with a deadline (every call has one) and turns a failure status back
 * into the domain error the server raised.
 */
export function callUnary<Request, Response>(
  method: UnaryMethod<Request, Response>,
  request: Request,
  options: { deadlineMs?: number } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + (options.deadlineMs ?? 2000));
    method(request, new Metadata(), { deadline }, (error, response) => {
      if (error) reject(grpcErrorToDomain(error));
      else resolve(response);
    });
  });
}
