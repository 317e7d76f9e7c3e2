import { z } from 'zod';

const IPV4_WITH_PORT = /^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/;

/**
 * Where a gRPC service listens: one `host:port` (a Kubernetes Service name, say), or the IPv4
 * `host:port` of each of its replicas separated by commas, which becomes grpc-js's `ipv4:`
 * target so that the channel balances calls between them.
 */
export const grpcAddressFromEnv = z
  .string()
  .min(1)
  .refine((value) => !value.includes(',') || value.split(',').every((address) => IPV4_WITH_PORT.test(address.trim())), {
    message: 'several addresses must each be an IPv4 address with a port',
  })
  .transform((value) =>
    value.includes(',')
      ? `ipv4:${value
          .split(',')
          .map((address) => address.trim())
          .join(',')}`
      : value,
  );
