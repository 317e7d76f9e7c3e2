/**
 * A parameter given more than once takes its last value, as Rack reads it for GitLab; bracketed
 * arrays keep every value. Through the gateway to a service's route, as clients send them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { createUserWithToken, E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  platform = await startTestPlatform({ services: [] });
  gateway = request(platform.url);
  for (const username of ['repeat-a', 'repeat-b', 'repeat-c']) await createUserWithToken(gateway, username);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe('repeated parameters', () => {
  it('take their last value: GET /users?per_page=100&per_page=2 answers a page of 2', async () => {
    const response = await gateway.get('/api/v4/users?per_page=100&per_page=2&page=3&page=1').set(asRoot);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    expect(response.headers).toMatchObject({ 'x-per-page': '2', 'x-page': '1', 'x-next-page': '2' });
  });

  it('still refuse a last value that is invalid', async () => {
    const response = await gateway.get('/api/v4/users?per_page=2&per_page=many').set(asRoot);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'per_page is invalid' });
  });
});
