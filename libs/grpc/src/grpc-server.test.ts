import { describe, expect, it } from '@jest/globals';
import type { ServiceDefinition, UntypedHandleCall } from '@grpc/grpc-js';
import { mergeBindings } from './grpc-server.ts';

const handler = (() => undefined) as unknown as UntypedHandleCall;
const first = { ping: {} } as unknown as ServiceDefinition;
const second = { pong: {} } as unknown as ServiceDefinition;

describe('mergeBindings', () => {
  it('serves the parts of one service definition as one service, and other definitions apart', () => {
    const merged = mergeBindings([
      { definition: first, implementation: { ping: handler } },
      { definition: second, implementation: { pong: handler } },
      { definition: first, implementation: { echo: handler } },
    ]);
    expect(merged).toEqual([
      { definition: first, implementation: { ping: handler, echo: handler } },
      { definition: second, implementation: { pong: handler } },
    ]);
  });

  it('refuses a method implemented by two bindings', () => {
    expect(() =>
      mergeBindings([
        { definition: first, implementation: { ping: handler } },
        { definition: first, implementation: { ping: handler } },
      ]),
    ).toThrow('gRPC method ping is implemented twice');
  });
});
