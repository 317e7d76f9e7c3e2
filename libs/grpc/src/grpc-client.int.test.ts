import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NotFoundError, UnavailableError } from '@platform/errors';
import { createLogger } from '@platform/logger';
import { callUnary } from './grpc-client.ts';
import { startGrpcServer, type GrpcServer } from './grpc-server.ts';
import { internalClientOptions } from './internal-credentials.ts';
import { jsonTestService, type JsonTestClient } from './json-test-service.ts';
import { unaryHandler } from './unary-handler.ts';

const SECRET = 'internal-secret-for-this-test';
/** A service whose one method finds a thing by name, or answers NOT_FOUND. */
type Things = { find: [{ name: string }, { name: string }] };
const things = jsonTestService<Things>('test.v1.Things', { find: 'Find' });

let server: GrpcServer;
let client: JsonTestClient<Things>;
/** How many of the next calls are answered UNAVAILABLE, as by a replica going away. */
let unavailableAnswers = 0;

beforeAll(async () => {
  server = await startGrpcServer({
    port: 0,
    internalSecret: SECRET,
    services: [
      {
        definition: things.definition,
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
  client = things.connect(server.port, internalClientOptions({ internalSecret: SECRET }));
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
