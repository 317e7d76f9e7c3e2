import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import { PersonalAccessTokenRevoked } from '@platform/proto/identity/v1/events';
import { identityEvents } from '@platform/identity-client';
import { createLogger } from '@platform/logger';
import { affectedUserIds, invalidateOn } from './auth-invalidation.ts';

function envelopeOf(type: string, aggregateId: number, data: unknown): EventEnvelope {
  return {
    id: '00000000-0000-4000-8000-000000000002',
    type,
    occurredAt: '2026-11-22T10:00:00.000Z',
    aggregateId: String(aggregateId),
    actor: null,
    data: data as Record<string, unknown>,
    traceContext: {},
  };
}

describe('affectedUserIds', () => {
  it("names the owner of a revoked personal access token, so the gateway forgets the owner's cached answers", () => {
    const data = PersonalAccessTokenRevoked.toJSON({ tokenId: 31, userId: 7, username: 'ada', tokenName: 'ci' });
    expect(affectedUserIds(envelopeOf('identity.personal_access_token.revoked', 7, data))).toEqual([7]);
  });
});

describe('invalidateOn', () => {
  function recorder() {
    const forgotten: number[] = [];
    const warnings: string[] = [];
    // Each log line, as the logger writes it.
    const destination = { write: (line: string) => warnings.push(JSON.parse(line).msg) };
    const handle = invalidateOn({
      authenticator: { forgetUser: (userId) => forgotten.push(userId) },
      logger: createLogger({ name: 'gateway', destination }),
    });
    return { handle, forgotten, warnings };
  }

  it('forgets the user an identity event names, decoded through the event catalogue', () => {
    const { handle, forgotten, warnings } = recorder();
    const blocked = identityEvents.userBlocked.event({
      aggregateId: '12',
      data: {
        user: { id: 12, username: 'ada', name: 'Ada', email: 'ada@example.com', state: 'blocked', isAdmin: false, privateProfile: false },
      },
    });
    handle(envelopeOf(blocked.type, 12, blocked.data));
    expect(forgotten).toEqual([12]);
    expect(warnings).toEqual([]);
  });

  it('logs and skips a malformed authorization event instead of throwing, and ignores other events', () => {
    const { handle, forgotten, warnings } = recorder();
    expect(() => handle(envelopeOf('identity.user.blocked', 12, { user: 'not a user' }))).not.toThrow();
    expect(() => handle(envelopeOf('identity.personal_access_token.revoked', 7, { userId: 'seven' }))).not.toThrow();
    handle(envelopeOf('identity.group.created', 3, {}));
    expect(forgotten).toEqual([]);
    expect(warnings).toEqual(['ignoring a malformed identity event', 'ignoring a malformed identity event']);
  });
});
