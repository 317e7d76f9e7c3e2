import { describe, expect, it } from '@jest/globals';
import { grpcAddressFromEnv } from './grpc-address.ts';

describe('grpcAddressFromEnv', () => {
  it('keeps one address as it is, and turns replicas into a balanced ipv4 target', () => {
    expect(grpcAddressFromEnv.parse('identity:50051')).toBe('identity:50051');
    expect(grpcAddressFromEnv.parse('127.0.0.1:50051, 127.0.0.1:50151')).toBe('ipv4:127.0.0.1:50051,127.0.0.1:50151');
  });

  it('refuses several addresses that are not IPv4 with a port', () => {
    expect(grpcAddressFromEnv.safeParse('identity-a:50051,identity-b:50051').success).toBe(false);
    expect(grpcAddressFromEnv.safeParse('').success).toBe(false);
  });
});
