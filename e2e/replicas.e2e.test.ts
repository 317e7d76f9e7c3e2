/**
 * Two replicas of identity behind the gateway (HTTP) and behind every gRPC client (the gateway's
 * token checks, audit's administrator checks): one killed under load costs no request. Two
 * replicas of audit sharing a consumer group: one killed under writes loses and repeats no event.
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
    replicas: { identity: 2, audit: 2 },
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

  it('applies every event once while one audit replica is killed under writes', async () => {
    const killed = platform.processes['audit-2'];
    if (!killed) throw new Error('no second audit replica');
    const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN, 'Content-Type': 'application/json' };
    const created: number[] = [];
    const failures: string[] = [];
    const killedPid = killed.pid();
    for (let index = 0; index < 20; index += 1) {
      if (index === 5) process.kill(killedPid, 'SIGKILL');
      const username = `replica-${index}`;
      const response = await fetch(`${platform.url}/api/v4/users`, {
        method: 'POST',
        headers: asRoot,
        body: JSON.stringify({ username, name: username, email: `${username}@example.com`, password: 'a-long-enough-password' }),
        signal: AbortSignal.timeout(30_000),
      });
      if (response.status === 201) created.push(((await response.json()) as { id: number }).id);
      else failures.push(`POST /api/v4/users: ${response.status}`);
      const read = await get('/api/v4/audit_events?per_page=1');
      if (read) failures.push(read);
    }
    expect(failures).toEqual([]);
    const userCreatedEvents = async (id: number) => {
      const response = await fetch(`${platform.url}/api/v4/audit_events?entity_type=User&entity_id=${id}&per_page=100`, {
        headers: asRoot,
        signal: AbortSignal.timeout(30_000),
      });
      if (response.status !== 200) return 0;
      return ((await response.json()) as Array<{ event_name: string }>).filter((event) => event.event_name === 'user_created').length;
    };
    // The killed replica's partitions move to the other once its session expires.
    for (const id of created) {
      await waitFor(async () => (await userCreatedEvents(id)) >= 1 || undefined, { what: `user ${id}'s audit event`, timeoutMs: 120_000 });
    }
    for (const id of created) expect(await userCreatedEvents(id)).toBe(1);
  });
});
