import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@platform/config';
import { PLATFORM_SERVICES } from '@platform/devstack';
import { DEFAULT_PROCESSES, processesConfig, processesPerService } from './processes-config.ts';

const processesFrom = (env: Record<string, string>) => processesPerService(loadConfig(processesConfig, env));

describe('processes per service', () => {
  it('runs every service as one process unless told: the measured default on a 2-core machine', () => {
    expect(DEFAULT_PROCESSES).toEqual({ identity: 1 });
    expect(processesFrom({})).toEqual(Object.fromEntries(PLATFORM_SERVICES.map((service) => [service, 1])));
  });

  it('takes each service’s count from <SERVICE>_PROCESSES', () => {
    expect(processesFrom({ IDENTITY_PROCESSES: '3', REVIEW_PROCESSES: '2' })).toMatchObject({ identity: 3, review: 2, audit: 1 });
    expect(processesFrom({ IDENTITY_PROCESSES: '2' }).identity).toBe(2);
  });

  it('refuses a count that is not a whole number from 1, naming the variable', () => {
    for (const value of ['0', '1.5', 'two', '17']) {
      expect(() => processesFrom({ IDENTITY_PROCESSES: value })).toThrow(ConfigError);
      expect(() => processesFrom({ IDENTITY_PROCESSES: value })).toThrow(/IDENTITY_PROCESSES/);
    }
  });
});
