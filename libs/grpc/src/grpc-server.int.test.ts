import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentials, makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { startGrpcServer, type GrpcServer } from './grpc-server.ts';

type HealthClient = Client & {
  check(request: { service: string }, callback: (error: ServiceError | null, response: { status: string }) => void): void;
};

let server: GrpcServer;
let client: HealthClient;

function check(): Promise<string> {
  return new Promise((resolve, reject) => {
    client.check({ service: '' }, (error, response) => (error ? reject(error) : resolve(response.status)));
  });
}

beforeAll(async () => {
  server = await startGrpcServer({ port: 0, internalSecret: 'internal-secret-for-this-test', services: [] });
  const HealthClient = makeGenericClientConstructor(healthService, 'Health');
  client = new HealthClient(`127.0.0.1:${server.port}`, credentials.createInsecure()) as unknown as HealthClient;
});

afterAll(async () => {
  client?.close();
  await server?.stop();
});

describe('the standard gRPC health service', () => {
  it('reports SERVING once started and follows setServing, to probes without credentials', async () => {
    expect(await check()).toBe('SERVING');
    server.setServing(false);
    expect(await check()).toBe('NOT_SERVING');
    server.setServing(true);
    expect(await check()).toBe('SERVING');
  });
});
