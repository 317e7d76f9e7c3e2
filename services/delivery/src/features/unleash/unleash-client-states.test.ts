import { describe, expect, it } from '@jest/globals';
import type { UnleashClientState } from '../feature-flags/feature-flags-client-store.ts';
import { FOLLOWED_STATE_TRUST_MS, UnleashClientStates } from './unleash-client-states.ts';

/** The states a database would hold, counting the reads; a read sees the rows as they were when it started. */
function fakeDatabase(initial: Record<number, UnleashClientState>) {
  const rows = new Map(Object.entries(initial).map(([projectId, state]) => [Number(projectId), state]));
  const database = {
    rows,
    reads: 0,
    read: async (projectId: number) => {
      database.reads += 1;
      const row = rows.get(projectId) ?? null;
      await new Promise((resolve) => setImmediate(resolve));
      return row;
    },
  };
  return database;
}

function statesOver(database: ReturnType<typeof fakeDatabase>, options: { followed?: boolean } = {}) {
  const clock = { now: 1_000_000, followed: options.followed ?? true };
  const states = new UnleashClientStates({ read: database.read, followed: () => clock.followed, now: () => clock.now });
  return { states, clock };
}

describe("the Unleash clients' project states", () => {
  it('reads a project once, then answers from memory while the event feed is live', async () => {
    const database = fakeDatabase({ 7: { token: 'glffct-a', revision: '10' } });
    const { states } = statesOver(database);
    expect(await Promise.all([states.revisionFor(7, 'glffct-a'), states.revisionFor(7, 'glffct-a')])).toEqual(['10', '10']);
    // A kept state is the answer itself, not a promise of it: the poll waits for nothing.
    for (let poll = 0; poll < 100; poll += 1) expect(states.revisionFor(7, 'glffct-a')).toBe('10');
    expect(database.reads).toBe(1);
  });

  it('refuses a wrong instance id after a fresh read, and accepts a new one at once', async () => {
    const database = fakeDatabase({ 7: { token: 'glffct-a', revision: '10' } });
    const { states } = statesOver(database);
    expect(await states.revisionFor(7, 'glffct-a')).toBe('10');
    expect(await states.revisionFor(7, 'glffct-wrong')).toBeNull();
    expect(database.reads).toBe(2);
    // Reset on another replica, its event not here yet: the new id is read, the old one refused.
    database.rows.set(7, { token: 'glffct-b', revision: '10' });
    expect(await states.revisionFor(7, 'glffct-b')).toBe('10');
    expect(await states.revisionFor(7, 'glffct-a')).toBeNull();
    expect(await states.revisionFor(8, 'glffct-a')).toBeNull();
  });

  it('reads again after forget, and keeps nothing of a read that started before it', async () => {
    const database = fakeDatabase({ 7: { token: 'glffct-a', revision: '10' } });
    const { states } = statesOver(database);
    const before = states.revisionFor(7, 'glffct-a');
    database.rows.set(7, { token: 'glffct-a', revision: '11' });
    states.forget(7);
    expect(await before).toBe('10');
    expect(await states.revisionFor(7, 'glffct-a')).toBe('11');
    expect(await states.revisionFor(7, 'glffct-a')).toBe('11');
    expect(database.reads).toBe(2);
  });

  it('reads on every poll while the feed is not live, and trusts nothing read then', async () => {
    const database = fakeDatabase({ 7: { token: 'glffct-a', revision: '10' } });
    const { states, clock } = statesOver(database, { followed: false });
    await states.revisionFor(7, 'glffct-a');
    await states.revisionFor(7, 'glffct-a');
    expect(database.reads).toBe(2);
    clock.followed = true;
    await states.revisionFor(7, 'glffct-a');
    await states.revisionFor(7, 'glffct-a');
    expect(database.reads).toBe(3);
    clock.followed = false;
    database.rows.set(7, { token: 'glffct-a', revision: '11' });
    expect(await states.revisionFor(7, 'glffct-a')).toBe('11');
  });

  it('trusts a state for a bounded time even while the feed is live', async () => {
    const database = fakeDatabase({ 7: { token: 'glffct-a', revision: '10' } });
    const { states, clock } = statesOver(database);
    await states.revisionFor(7, 'glffct-a');
    database.rows.set(7, { token: 'glffct-a', revision: '11' });
    clock.now += FOLLOWED_STATE_TRUST_MS - 1;
    expect(await states.revisionFor(7, 'glffct-a')).toBe('10');
    clock.now += 1;
    expect(await states.revisionFor(7, 'glffct-a')).toBe('11');
  });

  it('holds no more than its bound in bytes', async () => {
    const database = fakeDatabase(Object.fromEntries(Array.from({ length: 1_000 }, (_, id) => [id, { token: `t${id}`, revision: '1' }])));
    const states = new UnleashClientStates({ read: database.read, followed: () => true, maxBytes: 10_000 });
    for (let projectId = 0; projectId < 1_000; projectId += 1) await states.revisionFor(projectId, `t${projectId}`);
    expect(states.size).toBeGreaterThan(5_000);
    expect(states.size).toBeLessThanOrEqual(10_000);
  });
});
