import { describe, expect, it } from '@jest/globals';
import { ClientFeaturesCache } from './client-features-cache.ts';

const features = (name: string) => ({ version: 1, features: [{ name, enabled: true, strategies: [] }] });

describe('the Unleash client answer cache', () => {
  it('builds an answer once per project, revision and environment, however many ask at once', async () => {
    const cache = new ClientFeaturesCache();
    let builds = 0;
    const build = async () => {
      builds += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return features('checkout');
    };
    const key = { projectId: 7, revision: '100', environment: 'production' };
    const answers = await Promise.all([cache.answer(key, build), cache.answer(key, build), cache.answer(key, build)]);
    expect(builds).toBe(1);
    expect(JSON.parse(answers[0]!.body.toString())).toEqual(features('checkout'));
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);

    await cache.answer({ ...key, environment: 'staging' }, build);
    await cache.answer({ ...key, projectId: 8 }, build);
    const changed = await cache.answer({ ...key, revision: '101' }, async () => features('checkout_v2'));
    expect(builds).toBe(3);
    expect(changed.etag).not.toBe(answers[0]!.etag);
  });

  it('serves a kept answer as it is, with its headers, without a promise to wait for', async () => {
    const cache = new ClientFeaturesCache();
    const key = { projectId: 7, revision: '100', environment: undefined };
    const built = await cache.answer(key, async () => features('checkout'));
    const kept = cache.answer(key, async () => features('other'));
    expect(kept).toBe(built);
    expect(built.headers).toEqual({
      full: { 'Content-Type': 'application/json; charset=utf-8', ETag: built.etag },
      notModified: { ETag: built.etag },
    });
  });

  it('holds no more than its bound in bytes, dropping the least recently asked', async () => {
    const cache = new ClientFeaturesCache({ maxBytes: 10_000 });
    for (let revision = 0; revision < 1_000; revision += 1) {
      await cache.answer({ projectId: 7, revision: String(revision), environment: 'production' }, async () => features('x'.repeat(100)));
    }
    expect(cache.size).toBeGreaterThan(5_000);
    expect(cache.size).toBeLessThanOrEqual(10_000);
  });
});
