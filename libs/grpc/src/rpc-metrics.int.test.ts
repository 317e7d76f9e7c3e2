import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { NotFoundError } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { callUnary } from './grpc-client.ts';
import { startGrpcServer, type GrpcServer } from './grpc-server.ts';
import { internalClientOptions } from './internal-credentials.ts';
import { jsonTestService, type JsonTestClient } from './json-test-service.ts';
import { unaryHandler } from './unary-handler.ts';

const SECRET = 'internal-secret-for-this-test';
type Probe = { find: [{ id: number }, { id: number }] };
const probe = jsonTestService<Probe>('test.v1.Probe', { find: 'Find' });

let server: GrpcServer;
let signed: JsonTestClient<Probe>;
let bare: JsonTestClient<Probe>;
const metrics = new Registry();

beforeAll(async () => {
  const logger = createLogger({ name: 'rpc-metrics-test', level: 'silent' });
  const find = unaryHandler(logger, async (request: { id: number }) => {
    if (request.id !== 1) throw new NotFoundError('Probe');
    return { id: 1 };
  });
  server = await startGrpcServer({
    port: 0,
    internalSecret: SECRET,
    services: [{ definition: probe.definition, implementation: { find }, scopes: { find: ['read_api'] } }],
    metrics,
  });
  signed = probe.connect(server.port, internalClientOptions({ internalSecret: SECRET }));
  bare = probe.connect(server.port);
});

afterAll(async () => {
  signed?.close();
  bare?.close();
  await server?.stop();
});

describe('grpc_server_handling_seconds', () => {
  it('times each call by service, method and status code, the refusals of the credential check included', async () => {
    expect(await callUnary(signed.find.bind(signed), { id: 1 })).toEqual({ id: 1 });
    expect(await callUnary(signed.find.bind(signed), { id: 1 })).toEqual({ id: 1 });
    await expect(callUnary(signed.find.bind(signed), { id: 2 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(callUnary(bare.find.bind(bare), { id: 1 })).rejects.toThrow();

    const scraped = await metrics.getSingleMetricAsString('grpc_server_handling_seconds');
    expect(scraped).toContain('# TYPE grpc_server_handling_seconds histogram');
    expect(scraped).toContain('grpc_server_handling_seconds_count{service="test.v1.Probe",method="Find",code="OK"} 2');
    expect(scraped).toContain('grpc_server_handling_seconds_count{service="test.v1.Probe",method="Find",code="NOT_FOUND"} 1');
    expect(scraped).toContain('grpc_server_handling_seconds_count{service="test.v1.Probe",method="Find",code="UNAUTHENTICATED"} 1');
  });
});
