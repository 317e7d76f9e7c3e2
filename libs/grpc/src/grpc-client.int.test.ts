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
import { NotFoundError, UnavailableError } from '@platform/errors';
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
/** A service whose one method finds a thing by name, or answers NOT_FOUND. */
const findService: ServiceDefinition = {
  find: {
    path: '/test.v1.Things/Find',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};
type Find = (
  request: { name: string },
  metadata: Metadata,
  options: object,
  callback: (error: ServiceError | null, response: { name: string }) => void,
) => ClientUnaryCall;
type ThingsClient = Client & { find: Find };
const ThingsClient = makeGenericClientConstructor(findService, 'Things') as unknown as new (
  address: string,
  channelCredentials: ReturnType<typeof credentials.createInsecure>,
  options?: object,
) => ThingsClient;

let server: GrpcServer;
let client: ThingsClient;
/** How many of the next calls are answered UNAVAILABLE, as by a replica going away. */
let unavailableAnswers = 0;

beforeAll(async () => {
  server = await startGrpcServer({
    port: 0,
    internalSecret: SECRET,
    services: [
      {
        definition: findService,
        scopes: { find: ['read_api'] },
        implementation: {
          find: unaryHandler(createLogger({ name: 'grpc-client-test', level: 'silent' }), async (request: { name: string }) => {
            if (unavailableAnswers > 0 || request.name === 'unavailable') {
              unavailableAnswers = Math.max(0, unavailableAnswers - 1);
              throw new UnavailableError('going away');
            }
            if (request.name !== 'known') throw new NotFoundError('Thing');
            return { name: request.name };
          }),
        },
      },
    ],
  });
  client = new ThingsClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), internalClientOptions({ internalSecret: SECRET }));
});

afterAll(async () => {
  client?.close();
  await server?.stop();
});

async function findTheThingNamed(name: string): Promise<{ name: string }> {
  return await callUnary(client.find.bind(client), { name });
}

describe('callUnary', () => {
  it('answers the response of a call that succeeded', async () => {
    expect(await findTheThingNamed('known')).toEqual({ name: 'known' });
  });

  it("raises the server's domain error with the stack of the code that made the call", async () => {
    const error = await findTheThingNamed('unknown').catch((raised: unknown) => raised);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).resource).toBe('Thing');
    expect((error as Error).stack).toContain('findTheThingNamed');
  });

  it('sends a call that met UNAVAILABLE once more, later within its deadline', async () => {
    unavailableAnswers = 1;
    expect(await findTheThingNamed('known')).toEqual({ name: 'known' });
    await expect(findTheThingNamed('unavailable')).rejects.toBeInstanceOf(UnavailableError);
  });

  it('leaves the stack trace limit of the process as it found it', async () => {
    const limit = Error.stackTraceLimit;
    await findTheThingNamed('known');
    await findTheThingNamed('unknown').catch(() => undefined);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
