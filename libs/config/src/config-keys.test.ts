import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { configKeys, setByDeployment } from './config-keys.ts';
import { listFromEnv } from './load-config.ts';

describe('configKeys', () => {
  const schema = z.object({
    SECRET: z.string().min(16).describe('signs things'),
    PEER_URL: z.url().default('http://127.0.0.1:3001').describe('where the peer listens'),
    PEERS: listFromEnv.default(['http://localhost:3002']),
    BROKERS: setByDeployment(listFromEnv.optional().describe('where Kafka is')),
    REVISION: setByDeployment(z.string().default('Unknown')).describe('what was built'),
    PAGE_SIZE: z.coerce.number().default(20),
    TOKEN: z.string().optional(),
  });

  it('names each key in order with its default and description', () => {
    expect(configKeys(schema).map(({ name, default: fallback, description }) => [name, fallback, description])).toEqual([
      ['SECRET', undefined, 'signs things'],
      ['PEER_URL', 'http://127.0.0.1:3001', 'where the peer listens'],
      ['PEERS', ['http://localhost:3002'], undefined],
      ['BROKERS', undefined, 'where Kafka is'],
      ['REVISION', 'Unknown', 'what was built'],
      ['PAGE_SIZE', 20, undefined],
      ['TOKEN', undefined, undefined],
    ]);
  });

  it('requires keys without a default, and has deployments set loopback defaults and marked keys', () => {
    expect(Object.fromEntries(configKeys(schema).map((key) => [key.name, key.need]))).toEqual({
      SECRET: 'required',
      PEER_URL: 'set',
      PEERS: 'set',
      BROKERS: 'set',
      REVISION: 'set',
      PAGE_SIZE: 'optional',
      TOKEN: 'optional',
    });
  });
});
