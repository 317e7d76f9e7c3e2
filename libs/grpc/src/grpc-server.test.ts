import { describe, expect, it } from '@jest/globals';
import type { ServiceDefinition, UntypedHandleCall } from '@grpc/grpc-js';
import { mergeBindings } from './grpc-server.ts';

const handler = (() => undefined) as unknown as UntypedHandleCall;
const first = { ping: {} } as unknown as ServiceDefinition;
const second = { pong: {} } as unknown as ServiceDefinition;

describe('mergeBindings', () => {
  it('serves the parts of one service definition as one service, with their scopes, and other definitions apart', () => {
    const merged = mergeBindings([
      { definition: first, implementation: { ping: handler }, scopes: { ping: ['read_api'] } },
      { definition: second, implementation: { pong: handler }, scopes: { pong: 'internal' } },
      { definition: first, implementation: { echo: handler }, scopes: { echo: ['api'] } },
    ]);
    expect(merged).toEqual([
      { definition: first, implementation: { ping: handler, echo: handler }, scopes: { ping: ['read_api'], echo: ['api'] } },
      { definition: second, implementation: { pong: handler }, scopes: { pong: 'internal' } },
    ]);
  });

  it('refuses a method implemented by two bindings', () => {
    expect(() =>
      mergeBindings([
        { definition: first, implementation: { ping: handler }, scopes: { ping: 'internal' } },
        { definition: first, implementation: { ping: handler }, scopes: { ping: 'internal' } },
      ]),
    ).toThrow('gRPC method ping is implemented twice');
  });
});
