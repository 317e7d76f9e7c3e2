import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

export interface GrpcServiceBinding {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface GrpcServer {
  port: number;
  setServing(serving: boolean): void;
  stop(): Promise<void>;
}

/**
 * Starts a gRPC server with the given services and the standard `grpc.health.v1.Health`
 * service, which reports SERVING once started. Port 0 picks a free port.
 */
export async function startGrpcServer(options: { host?: string; port: number; services: GrpcServiceBinding[] }): Promise<GrpcServer> {
  const server = new Server({ 'grpc.keepalive_permit_without_calls': 1 });
  for (const service of options.services) server.addService(service.definition, service.implementation);
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host ?? '0.0.0.0'}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
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
