import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { Metadata } from '@grpc/grpc-js';
import { CALLER_HEADER, signCaller, type Caller } from '@platform/auth';
import { ForbiddenError, InsufficientScopeError, UnauthorizedError } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { callUnary } from './grpc-client.ts';
import { startGrpcServer, type GrpcServer } from './grpc-server.ts';
import { internalClientOptions } from './internal-credentials.ts';
import { jsonTestService, type JsonTestClient } from './json-test-service.ts';
import { unaryHandler } from './unary-handler.ts';

const SECRET = 'internal-secret-for-this-test';
type WhoAmI = [object, { caller: Caller }];
type ProbeMethods = { whoAmI: WhoAmI; other: WhoAmI; write: WhoAmI; own: WhoAmI };
/** A service that answers whom the server believes the call acts for. */
const probe = jsonTestService<ProbeMethods>('test.v1.Probe', { whoAmI: 'WhoAmI', other: 'Other', write: 'Write', own: 'Own' });
type ProbeClient = JsonTestClient<ProbeMethods>;

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
    services: [
      {
        definition: probe.definition,
        implementation: { whoAmI, other: whoAmI, write: whoAmI, own: whoAmI },
        scopes: { whoAmI: ['read_api', 'read_repository'], other: ['read_api'], write: ['write_repository'], own: 'internal' },
      },
    ],
  });
  signed = probe.connect(server.port, internalClientOptions({ internalSecret: SECRET }));
  bare = probe.connect(server.port);
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
    const stale = signCaller(ada, SECRET, { method: 'POST', path: '/test.v1.Probe/WhoAmI' }, { now: Date.now() - 60_000 });
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

describe('token scopes on internal gRPC calls', () => {
  const withScopes = (...scopes: string[]): Caller => ({ ...ada, scopes });

  it('let a call through when one of the method scopes covers the token, as for the route that led to it', async () => {
    for (const scopes of [['api'], ['read_api'], ['read_repository'], ['write_repository']]) {
      const caller = withScopes(...scopes);
      expect(await callUnary(signed.whoAmI.bind(signed), {}, { caller })).toEqual({ caller });
    }
    const pusher = withScopes('write_repository');
    expect(await callUnary(signed.write.bind(signed), {}, { caller: pusher })).toEqual({ caller: pusher });
  });

  it('refuse a token whose scopes do not cover the method with insufficient_scope, naming the scopes that would', async () => {
    const refusal = callUnary(signed.write.bind(signed), {}, { caller: withScopes('read_api', 'read_repository') });
    await expect(refusal).rejects.toBeInstanceOf(InsufficientScopeError);
    await expect(refusal).rejects.toMatchObject({ scopes: ['api', 'write_repository'] });
    await expect(callUnary(signed.whoAmI.bind(signed), {}, { caller: withScopes('read_user') })).rejects.toMatchObject({
      scopes: ['api', 'read_api', 'read_repository', 'write_repository'],
    });
  });

  it('leave calls a service makes on its own behalf unscoped, and refuse user callers on internal-only methods', async () => {
    expect(await callUnary(signed.write.bind(signed), {})).toEqual({ caller: { kind: 'anonymous' } });
    expect(await callUnary(signed.own.bind(signed), {})).toEqual({ caller: { kind: 'anonymous' } });
    const refusal = callUnary(signed.own.bind(signed), {}, { caller: ada });
    await expect(refusal).rejects.toBeInstanceOf(ForbiddenError);
    await expect(refusal).rejects.not.toBeInstanceOf(InsufficientScopeError);
  });

  it('refuse to start a server with a method that declares no scope', async () => {
    const logger = createLogger({ name: 'internal-credentials-test', level: 'silent' });
    const whoAmI = unaryHandler(logger, async (_request: object, { caller }) => ({ caller }));
    await expect(
      startGrpcServer({
        port: 0,
        internalSecret: SECRET,
        services: [{ definition: probe.definition, implementation: { whoAmI, other: whoAmI, write: whoAmI, own: whoAmI }, scopes: {} }],
      }),
    ).rejects.toThrow('gRPC method /test.v1.Probe/WhoAmI declares no scope');
  });
});
