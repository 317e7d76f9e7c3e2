/**
 * Two replicas of identity behind the gateway (HTTP) and behind every gRPC client (the gateway's
 * token checks, audit's administrator checks): one killed under load costs no request.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;
let platform: TestPlatform;
const restarts: string[] = [];

beforeAll(async () => {
  platform = await startTestPlatform({
    services: ['identity', 'audit'],
    replicas: { identity: 2 },
    // Every request authenticates with identity over gRPC, so the killed replica is met there too.
    authCacheTtlMs: 0,
    restartPolicy: { initialDelayMs: 100, maxDelayMs: 2000, stableAfterMs: 30_000 },
    onRestart: (message) => restarts.push(message),
  });
}, 300_000);

afterAll(async () => {
  await platform?.stop();
});

async function get(path: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${platform.url}${path}`, {
      headers: { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN },
      signal: AbortSignal.timeout(30_000),
    });
    const body = await response.text();
    return response.status === 200 ? undefined : `${path}: ${response.status} ${body}`;
  } catch (error) {
    return `${path}: ${String(error)}`;
  }
}

describe('identity with two replicas', () => {
  it('serves every request while one replica is killed and restarted', async () => {
    const killed = platform.processes.identity;
    if (!killed || !platform.processes['identity-2']) throw new Error('no two identity replicas');
    const answered = { count: 0 };
    const failures: string[] = [];
    let done = false;
    // Identity's HTTP API through the gateway, and audit's administrator-only list, which asks identity over gRPC.
    const paths = ['/api/v4/user', '/api/v4/users?per_page=5', '/api/v4/audit_events?per_page=1'];
    const client = async (path: string) => {
      while (!done) {
        const failure = await get(path);
        if (failure) failures.push(failure);
        else answered.count += 1;
      }
    };
    const clients = [...paths, ...paths].map(client);
    await waitFor(async () => answered.count >= 30 || undefined, { what: 'requests flowing' });
    const killedPid = killed.pid();
    process.kill(killedPid, 'SIGKILL');
    const answeredAtKill = answered.count;
    await waitFor(async () => answered.count >= answeredAtKill + 60 || undefined, { what: 'requests after the kill', timeoutMs: 60_000 });
    await waitFor(
      async () => (killed.pid() !== killedPid && (await fetch(`${platform.serviceUrls.identity}/-/readiness`)).ok) || undefined,
      { what: 'the killed replica restarted', timeoutMs: 60_000 },
    );
    const answeredAtReturn = answered.count;
    await waitFor(async () => answered.count >= answeredAtReturn + 30 || undefined, {
      what: 'requests after the return',
      timeoutMs: 60_000,
    });
    done = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(restarts.filter((message) => message.startsWith('identity exited (signal SIGKILL)'))).toHaveLength(1);
  });
});
