/**
 * A gRPC service for integration tests: unary methods whose messages are JSON, so that a test
 * serves and calls the mechanics (server, client, credentials, metrics) without generated code.
 * Tests outside this library import it as `@platform/grpc/testing`; the library's own index does
 * not export it.
 */
import {
  credentials,
  makeGenericClientConstructor,
  type Client,
  type ClientUnaryCall,
  type Metadata,
  type MethodDefinition,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';

const json = {
  serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
  deserialize: (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as unknown,
};

/** A unary method as the generic client exposes it: request and response as `[Request, Response]`. */
type JsonUnary<Message extends [unknown, unknown]> = (
  request: Message[0],
  metadata: Metadata,
  options: object,
  callback: (error: ServiceError | null, response: Message[1]) => void,
) => ClientUnaryCall;

export type JsonTestClient<Methods extends Record<string, [unknown, unknown]>> = Client & {
  [Name in keyof Methods]: JsonUnary<Methods[Name]>;
};

export interface JsonTestService<Methods extends Record<string, [unknown, unknown]>> {
  definition: ServiceDefinition;
  /** A client of the service at `127.0.0.1:port`; `options` as grpc-js takes them (e.g. `internalClientOptions`). */
  connect(port: number, options?: object): JsonTestClient<Methods>;
}

/**
 * The service `name` (`test.v1.Probe`) with one method per entry of `paths`: the client's method
 * name to the RPC's name (`{ whoAmI: 'WhoAmI' }` serves `/test.v1.Probe/WhoAmI`).
 */
export function jsonTestService<Methods extends Record<string, [unknown, unknown]>>(
  name: string,
  paths: { [Method in keyof Methods]: string },
): JsonTestService<Methods> {
  const definition: ServiceDefinition = Object.fromEntries(
    Object.entries<string>(paths).map(([method, rpc]): [string, MethodDefinition<unknown, unknown>] => [
      method,
      {
        path: `/${name}/${rpc}`,
        requestStream: false,
        responseStream: false,
        requestSerialize: json.serialize,
        requestDeserialize: json.deserialize,
        responseSerialize: json.serialize,
        responseDeserialize: json.deserialize,
      },
    ]),
  );
  const JsonClient = makeGenericClientConstructor(definition, name);
  return {
    definition,
    connect: (port, options) =>
      new JsonClient(`127.0.0.1:${port}`, credentials.createInsecure(), options) as unknown as JsonTestClient<Methods>,
  };
}
