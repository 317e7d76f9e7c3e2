import {
  connectivityState,
  credentials,
  status,
  type Metadata,
  type CallOptions,
  type ChannelCredentials,
  type ChannelOptions,
  type Client,
  type ClientUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import type { Caller } from '@platform/auth';
import { metadataActingFor } from './internal-credentials.ts';
import { grpcErrorToDomain } from './status-mapping.ts';

export function createChannelCredentials(): ChannelCredentials {
  return credentials.createInsecure();
}

/**
 * Calls balance round-robin over the addresses of a target (`ipv4:a,b` for replicas side by side),
 * and a call that failed with UNAVAILABLE (its replica went away) is sent again, up to four times
 * within its deadline, once the balancer had a moment to see which replica is gone: on a loaded
 * machine two quick retries could both meet the replica before the balancer dropped it.
 */
const SERVICE_CONFIG = {
  loadBalancingConfig: [{ round_robin: {} }],
  methodConfig: [
    {
      name: [{}],
      retryPolicy: {
        maxAttempts: 5,
        initialBackoff: '0.1s',
        maxBackoff: '0.5s',
        backoffMultiplier: 2,
        retryableStatusCodes: ['UNAVAILABLE'],
      },
    },
  ],
};

/**
 * Options for every client channel. grpc-js backs off reconnects up to 120 s by default, so a
 * service that came back stayed unused for seconds; capped at 1 s it is used within a second.
 */
export const CLIENT_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 1000,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.service_config': JSON.stringify(SERVICE_CONFIG),
};

/**
 * The channel's connectivity state, e.g. `READY` or `TRANSIENT_FAILURE`, for readiness reports.
 * An idle channel is asked to connect, so that the report says whether the service can be
 * reached rather than staying `IDLE` until the next call.
 */
export function channelState(client: Client): string {
  return connectivityState[client.getChannel().getConnectivityState(true)] ?? 'UNKNOWN';
}

type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Response) => void,
) => ClientUnaryCall;

/** How long a call waits before its one late retry (see callUnary). */
const LATE_RETRY_MS = 200;

/**
 * Starts a call without the stack trace grpc-js records on every call for the error it would
 * raise: callUnary replaces that error by the domain error, whose stack (V8's async stack, taken
 * only when a call fails) names the code that made the call.
 */
function startWithoutCallerStack(start: () => void): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    start();
  } catch (error) {
    Error.stackTraceLimit = limit;
    if (error instanceof Error) Error.captureStackTrace(error, startWithoutCallerStack);
    throw error;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Calls a unary method with a deadline (every call has one) and turns a failure status back
 * into the domain error the server raised. `caller` is whom the call acts for (anonymous when
 * left out); the client's `internalClientOptions` interceptor signs it.
 */
export async function callUnary<Request, Response>(
  method: UnaryMethod<Request, Response>,
  request: Request,
  options: { deadlineMs?: number; caller?: Caller } = {},
): Promise<Response> {
  const deadline = new Date(Date.now() + (options.deadlineMs ?? 2000));
  const attempt = () =>
    new Promise<Response>((resolve, reject) => {
      startWithoutCallerStack(() =>
        method(request, metadataActingFor(options.caller), { deadline }, (error, response) => {
          if (error) reject(error);
          else resolve(response);
        }),
      );
    });
  try {
    try {
      return await attempt();
    } catch (error) {
      // grpc-js's own quick, jittered retries can all meet a replica that has just died, before the
      // balancer has dropped it; one later try within the same deadline reaches a live one.
      if ((error as ServiceError).code !== status.UNAVAILABLE || deadline.getTime() - Date.now() < LATE_RETRY_MS * 2) throw error;
      await new Promise((resolve) => setTimeout(resolve, LATE_RETRY_MS));
      return await attempt();
    }
  } catch (error) {
    throw grpcErrorToDomain(error as ServiceError);
  }
}
