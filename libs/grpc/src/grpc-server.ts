import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Registry } from 'prom-client';
import { internalCredentialsInterceptor, type RpcScope } from './internal-credentials.ts';
import { rpcDurationInterceptor } from './rpc-metrics.ts';

export interface GrpcServiceBinding {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /** For every method `implementation` serves, by its name: the token scopes that let a call act for a user. */
  scopes: Record<string, RpcScope>;
}

/** The scope of every served method by its path, refusing a binding that leaves one undeclared. */
function scopesByPath(services: GrpcServiceBinding[]): Map<string, RpcScope> {
  const byPath = new Map<string, RpcScope>();
  for (const { definition, implementation, scopes } of services) {
    for (const name of Object.keys(implementation)) {
      const path = definition[name]?.path ?? name;
      const scope = scopes[name];
      if (!scope) throw new Error(`gRPC method ${path} declares no scope`);
      byPath.set(path, scope);
    }
  }
  return byPath;
}

/**
 * One binding per service definition: features of a service may each implement part of one gRPC
 * service (identity's namespaces, projects and authentication features share `IdentityService`).
 * A method implemented twice is a wiring mistake, refused at start.
 */
export function mergeBindings(bindings: GrpcServiceBinding[]): GrpcServiceBinding[] {
  const merged = new Map<ServiceDefinition, Omit<GrpcServiceBinding, 'definition'>>();
  for (const { definition, implementation, scopes } of bindings) {
    const known = merged.get(definition) ?? { implementation: {}, scopes: {} };
    for (const method of Object.keys(implementation)) {
      if (method in known.implementation) throw new Error(`gRPC method ${method} is implemented twice`);
    }
    merged.set(definition, { implementation: { ...known.implementation, ...implementation }, scopes: { ...known.scopes, ...scopes } });
  }
  return [...merged].map(([definition, binding]) => ({ definition, ...binding }));
}

export interface GrpcServer {
  port: number;
  setServing(serving: boolean): void;
  stop(): Promise<void>;
}

/**
 * Starts a gRPC server with the given services and the standard `grpc.health.v1.Health`
 * service, which reports SERVING once started. Port 0 picks a free port. Every call but health
 * checks must carry a caller signed with the internal secret, and a user's call a token scope
 * that covers the method. The server listens on loopback
 * unless `host` says otherwise (`0.0.0.0` where other hosts call it, as in a cluster).
 */
export async function startGrpcServer(options: {
  host?: string;
  port: number;
  internalSecret: string;
  services: GrpcServiceBinding[];
  /** Where each call's duration is recorded (`grpc_server_handling_seconds`). */
  metrics?: Registry;
}): Promise<GrpcServer> {
  const services = mergeBindings(options.services);
  const credentials = internalCredentialsInterceptor(options.internalSecret, scopesByPath(services));
  const server = new Server({
    'grpc.keepalive_permit_without_calls': 1,
    // The first interceptor wraps the call nearest the wire: the timer sees the credential check's refusals too.
    interceptors: options.metrics ? [rpcDurationInterceptor(options.metrics), credentials] : [credentials],
  });
  for (const service of services) server.addService(service.definition, service.implementation);
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host ?? '127.0.0.1'}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  health.setStatus('', 'SERVING');
  return {
    port,
    setServing(serving) {
      health.setStatus('', serving ? 'SERVING' : 'NOT_SERVING');
    },
    stop() {
      health.setStatus('', 'NOT_SERVING');
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.forceShutdown(), 5000);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
