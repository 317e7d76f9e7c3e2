import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  type Client,
  type ClientUnaryCall,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { CALLER_HEADER, signCaller, type Caller } from '@platform/auth';
import { UnauthorizedError } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { callUnary } from './grpc-client.ts';
import { startGrpcServer, type GrpcServer } from './grpc-server.ts';
import { internalClientOptions } from './internal-credentials.ts';
import { unaryHandler } from './status-mapping.ts';

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
/** A service that answers whom the server believes the call acts for. */
const whoAmIService: ServiceDefinition = { whoAmI: method('/test.v1.Probe/WhoAmI'), other: method('/test.v1.Probe/Other') };

type Unary = (
  request: object,
  metadata: Metadata,
  options: object,
  callback: (error: ServiceError | null, response: { caller: Caller }) => void,
) => ClientUnaryCall;
type ProbeClient = Client & { whoAmI: Unary; other: Unary };
const ProbeClient = makeGenericClientConstructor(whoAmIService, 'Probe') as unknown as new (
  address: string,
  channelCredentials: ReturnType<typeof credentials.createInsecure>,
  options?: object,
) => ProbeClient;

let server: GrpcServer;
let signed: ProbeClient;
let bare: ProbeClient;
const ada: Caller = { kind: 'user', userId: 7, username: 'ada', name: 'Ada', isAdmin: false, scopes: ['api'] };

function rawCall(client: ProbeClient, metadata: Metadata): Promise<{ caller: Caller }> {
  return new Promise((resolve, reject) => {
    client.whoAmI({}, metadata, { deadline: Date.now() + 2000 }, (error, response) => (error ? reject(error) : resolve(response)));
  });
}

function metadataWith(header: string): Metadata {
  const metadata = new Metadata();
  metadata.set(CALLER_HEADER, header);
  return metadata;
}

beforeAll(async () => {
  const logger = createLogger({ name: 'internal-credentials-test', level: 'silent' });
  const whoAmI = unaryHandler(logger, async (_request: object, { caller }) => ({ caller }));
  server = await startGrpcServer({
    port: 0,
    internalSecret: SECRET,
    services: [{ definition: whoAmIService, implementation: { whoAmI, other: whoAmI } }],
  });
  signed = new ProbeClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), internalClientOptions({ internalSecret: SECRET }));
  bare = new ProbeClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
});

afterAll(async () => {
  signed?.close();
  bare?.close();
  await server?.stop();
});

describe('internal gRPC call credentials', () => {
  it('let a signed call through, acting for the caller the client named, or anonymous', async () => {
    expect(await callUnary(signed.whoAmI.bind(signed), {}, { caller: ada })).toEqual({ caller: ada });
    expect(await callUnary(signed.whoAmI.bind(signed), {})).toEqual({ caller: { kind: 'anonymous' } });
  });

  it('refuse a call without credentials', async () => {
    await expect(callUnary(bare.whoAmI.bind(bare), {}, { caller: ada })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(rawCall(bare, new Metadata())).rejects.toMatchObject({ code: 16 });
  });

  it('refuse a caller signed with another secret, for another method, or long ago', async () => {
    const forged = signCaller(ada, 'not-the-internal-secret', { method: 'POST', path: '/test.v1.Probe/WhoAmI' });
    await expect(rawCall(bare, metadataWith(forged))).rejects.toMatchObject({ code: 16, details: 'forged caller' });
    const forOther = signCaller(ada, SECRET, { method: 'POST', path: '/test.v1.Probe/Other' });
    await expect(rawCall(bare, metadataWith(forOther))).rejects.toMatchObject({ code: 16, details: 'caller signed for another request' });
    const stale = signCaller(ada, SECRET, { method: 'POST', path: '/test.v1.Probe/WhoAmI' }, Date.now() - 60_000);
    await expect(rawCall(bare, metadataWith(stale))).rejects.toMatchObject({ code: 16, details: 'expired caller' });
    const valid = signCaller(ada, SECRET, { method: 'POST', path: '/test.v1.Probe/WhoAmI' });
    expect(await rawCall(bare, metadataWith(valid))).toEqual({ caller: ada });
  });

  it('listen on loopback only unless told otherwise', async () => {
    // 127.0.0.2 is this machine too, but not the address a loopback-only server bound.
    const reached = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port: server.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    expect(await reached('127.0.0.1')).toBe(true);
    expect(await reached('127.0.0.2')).toBe(false);
  });
});
