import { describe, expect, it } from '@jest/globals';
import { readConfig } from '../../config.ts';
import { hashedDiskPath, RepositoryStorages } from './repository-storages.ts';

const env = { DATABASE_URL: 'postgresql://localhost/review', KAFKA_BROKERS: 'localhost:9092', INTERNAL_SECRET: 'x'.repeat(16) };

describe('repository storages', () => {
  it('lays repositories out as GitLab hashes them', () => {
    // sha256("1"), as GitLab's hashed storage names project 1's repository.
    expect(hashedDiskPath(1)).toBe('@hashed/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git');
  });

  it('puts `default` under DATA_DIR unless configured, next to the storages named', () => {
    expect(readConfig({ ...env, DATA_DIR: '/data' }).REPOSITORY_STORAGES).toEqual({ default: '/data/repositories' });
    expect(readConfig({ ...env, REPOSITORY_STORAGES: 'default=/srv/a,fast=/srv/b' }).REPOSITORY_STORAGES).toEqual({
      default: '/srv/a',
      fast: '/srv/b',
    });
    expect(() => readConfig({ ...env, REPOSITORY_STORAGES: 'fast=relative' })).toThrow('REPOSITORY_STORAGES');
  });

  it('finds a repository on its storage, and refuses a storage it does not know', () => {
    const storages = new RepositoryStorages({ default: '/a', fast: '/b' });
    expect(storages.pathOf({ storage: 'fast', diskPath: '@hashed/x.git' })).toBe('/b/@hashed/x.git');
    expect(() => storages.pathOf({ storage: 'slow', diskPath: 'x' })).toThrow('unknown repository storage "slow"');
  });

  it('draws the storage of a new repository by weight, among configured storages weighing more than 0', () => {
    const storages = new RepositoryStorages({ default: '/a', fast: '/b', slow: '/c' });
    const weights = { default: 0, fast: 30, slow: 10, gone: 50 };
    // Draws 0..29 fall on `fast`, 30..39 on `slow`; `gone` is not configured and `default` weighs 0.
    expect([0, 29, 30, 39].map((drawn) => storages.pick(weights, () => drawn))).toEqual(['fast', 'fast', 'slow', 'slow']);
    const drawn = new Set(Array.from({ length: 200 }, () => storages.pick(weights)));
    expect(drawn).toEqual(new Set(['fast', 'slow']));
    expect(storages.pick({ default: 0, fast: 0 })).toBe('default');
  });
});
