import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  credentials,
  makeGenericClientConstructor,
  type Client,
  type ClientUnaryCall,
  type Metadata,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { NotFoundError } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { callUnary } from './grpc-client.ts';
import { startGrpcServer, type GrpcServer } from './grpc-server.ts';
import { internalClientOptions } from './internal-credentials.ts';
import { unaryHandler } from './unary-handler.ts';

const SECRET = 'internal-secret-for-this-test';
const json = {
  serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
  deserialize: (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as unknown,
};
const method = (path: string) => ({
  path,
  requestStream: false,
  responseStream: false,
  requestSerialize: json.serialize,
  requestDeserialize: json.deserialize,
  responseSerialize: json.serialize,
  responseDeserialize: json.deserialize,
});
const probeService: ServiceDefinition = {
  find: method('/test.v1.Probe/Find'),
};

type Unary = (
  request: { id: number },
  metadata: Metadata,
  options: object,
  callback: (error: ServiceError | null, response: { id: number }) => void,
) => ClientUnaryCall;
type ProbeClient = Client & { find: Unary };
const ProbeClient = makeGenericClientConstructor(probeService, 'Probe') as unknown as new (
  address: string,
  channelCredentials: ReturnType<typeof credentials.createInsecure>,
  options?: object,
) => ProbeClient;

let server: GrpcServer;
let signed: ProbeClient;
let bare: ProbeClient;
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
    services: [{ definition: probeService, implementation: { find }, scopes: { find: ['read_api'] } }],
    metrics,
  });
  signed = new ProbeClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), internalClientOptions({ internalSecret: SECRET }));
  bare = new ProbeClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
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
