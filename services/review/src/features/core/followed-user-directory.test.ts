import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { Caller } from '@platform/auth';
import type { EventEnvelope, OutgoingEvent } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { FollowedUserDirectory } from './followed-user-directory.ts';
import { userChangedBy } from './identity-user-events.ts';
import { FixedUserDirectory, type UserDirectory, type UserSummary } from './user-directory.ts';

const caller: Caller = { kind: 'user', userId: 1, username: 'root', name: 'Root', isAdmin: true, scopes: ['api'] };

/** Identity's users, renamed at will, counting what it is asked. */
class CountingDirectory extends FixedUserDirectory {
  readonly asked: number[][] = [];
  readonly renamed = new Map<number, string>();
  /** Holds each answer until the test lets it go. */
  gate: Promise<void> = Promise.resolve();

  constructor() {
    super([
      { id: 1, username: 'root' },
      { id: 2, username: 'alice' },
      { id: 3, username: 'bob' },
    ]);
  }

  override async users(ids: number[]): Promise<Map<number, UserSummary>> {
    this.asked.push(ids);
    const users = await super.users(ids);
    await this.gate;
    for (const [id, name] of this.renamed) {
      const user = users.get(id);
      if (user) users.set(id, { ...user, name });
    }
    return users;
  }
}

function followed(options: { live?: () => boolean; now?: () => number; maxUsers?: number } = {}) {
  const identity = new CountingDirectory();
  const directory: UserDirectory & { forget(userId: number): void; size: number } = new FollowedUserDirectory({
    directory: identity,
    followed: options.live ?? (() => true),
    ...(options.now ? { now: options.now } : {}),
    ...(options.maxUsers ? { maxUsers: options.maxUsers } : {}),
  });
  return { identity, directory };
}

const names = (users: Map<number, UserSummary>) => [...users.values()].map((user) => user.name).sort();

describe('FollowedUserDirectory', () => {
  it('asks identity once for users it keeps, and only for those it does not keep', async () => {
    const { identity, directory } = followed();
    expect(names(await directory.users([2, 3, 2], caller))).toEqual(['alice', 'bob']);
    expect(names(await directory.users([3, 2], caller))).toEqual(['alice', 'bob']);
    expect(names(await directory.users([1, 2], caller))).toEqual(['alice', 'root']);
    expect(identity.asked).toEqual([[2, 3], [1]]);
  });

  it('asks again for a user an event forgot', async () => {
    const { identity, directory } = followed();
    await directory.users([2], caller);
    identity.renamed.set(2, 'Alice Renamed');
    directory.forget(2);
    expect(names(await directory.users([2], caller))).toEqual(['Alice Renamed']);
    expect(identity.asked).toHaveLength(2);
  });

  it('does not keep an answer asked for before an event arrived', async () => {
    const { identity, directory } = followed();
    let answer = () => {};
    identity.gate = new Promise((resolve) => (answer = resolve));
    const before = directory.users([2], caller);
    directory.forget(2);
    answer();
    expect(names(await before)).toEqual(['alice']);
    identity.renamed.set(2, 'Alice Renamed');
    expect(names(await directory.users([2], caller))).toEqual(['Alice Renamed']);
  });

  it('asks identity every time while the event feed is not live, and keeps nothing read meanwhile', async () => {
    let live = false;
    const { identity, directory } = followed({ live: () => live });
    await directory.users([2], caller);
    await directory.users([2], caller);
    expect(identity.asked).toHaveLength(2);
    live = true;
    await directory.users([2], caller);
    expect(identity.asked).toHaveLength(3);
    live = false;
    await directory.users([2], caller);
    expect(identity.asked).toHaveLength(4);
  });

  it('trusts a kept user for ten seconds at most', async () => {
    let now = 5_000;
    const { identity, directory } = followed({ now: () => now });
    await directory.users([2], caller);
    now = 15_000;
    await directory.users([2], caller);
    expect(identity.asked).toHaveLength(1);
    now = 15_001;
    await directory.users([2], caller);
    expect(identity.asked).toHaveLength(2);
  });

  it('trusts a kept user from when it was asked for, however late the answer came', async () => {
    let now = 5_000;
    const { identity, directory } = followed({ now: () => now });
    let answer = () => {};
    identity.gate = new Promise((resolve) => (answer = resolve));
    const asked = directory.users([2], caller);
    now = 14_000;
    answer();
    await asked;
    now = 15_001;
    await directory.users([2], caller);
    expect(identity.asked).toHaveLength(2);
  });

  it('keeps neither unknown ids nor more users than its bound, dropping the least recently used', async () => {
    const { identity, directory } = followed({ maxUsers: 2 });
    expect((await directory.users([2, 99], caller)).size).toBe(1);
    await directory.users([99], caller);
    await directory.users([3], caller);
    await directory.users([2], caller);
    await directory.users([1], caller);
    expect(directory.size).toBe(2);
    await directory.users([2, 1], caller);
    await directory.users([3], caller);
    expect(identity.asked).toEqual([[2, 99], [99], [3], [1], [3]]);
  });
});

const envelopeOf = (event: OutgoingEvent): EventEnvelope => ({
  id: randomUUID(),
  type: event.type,
  occurredAt: new Date().toISOString(),
  aggregateId: String(event.aggregateId),
  actor: null,
  data: event.data,
  traceContext: {},
});

describe("identity's events that change a user's summary", () => {
  const user = {
    id: 2,
    username: 'alice',
    name: 'Alice',
    email: 'alice@example.com',
    isAdmin: false,
    state: 'active',
    privateProfile: false,
  };

  it('name the user when they are updated, blocked, unblocked or deleted', () => {
    const events = [
      identityEvents.userUpdated.event({ aggregateId: 2, data: { user, changes: [{ attribute: 'name', from: 'A', to: 'Alice' }] } }),
      identityEvents.userBlocked.event({ aggregateId: 2, data: { user } }),
      identityEvents.userUnblocked.event({ aggregateId: 2, data: { user } }),
      identityEvents.userDeleted.event({ aggregateId: 2, data: { user, hardDelete: false, ghostUserId: 9 } }),
    ];
    expect(events.map((event) => userChangedBy(envelopeOf(event)))).toEqual([2, 2, 2, 2]);
  });

  it('leave other events out', () => {
    const created = identityEvents.userCreated.event({ aggregateId: 2, data: { user } });
    const revoked = identityEvents.personalAccessTokenRevoked.event({
      aggregateId: 2,
      data: { userId: 2, username: 'alice', tokenId: 5, tokenName: 'ci' },
    });
    expect([created, revoked].map((event) => userChangedBy(envelopeOf(event)))).toEqual([undefined, undefined]);
  });
});
