import { describe, expect, it } from '@jest/globals';
import { identityEvents, IDENTITY_TOPIC } from './identity-events.ts';

const user = {
  id: 7,
  username: 'grace',
  name: 'Grace',
  email: 'grace@example.com',
  isAdmin: false,
  state: 'active',
  privateProfile: false,
};
const envelope = (outgoing: { type: string; aggregateId: string | number; data: Record<string, unknown> }) => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: outgoing.type,
  occurredAt: '2026-11-22T10:00:00.000Z',
  aggregateId: String(outgoing.aggregateId),
  actor: null,
  data: outgoing.data,
  traceContext: {},
});

describe('identity event catalogue', () => {
  it('encodes for the outbox and decodes for consumers through one definition', () => {
    const outgoing = identityEvents.userCreated.event({ aggregateId: user.id, data: { user } });
    // Proto3 JSON: fields at their default (isAdmin false) are left out.
    expect(outgoing).toEqual({
      topic: IDENTITY_TOPIC,
      type: 'identity.user.created',
      aggregateId: 7,
      data: { user: { id: 7, username: 'grace', name: 'Grace', email: 'grace@example.com', state: 'active' } },
    });
    expect(identityEvents.userCreated.decode(envelope(outgoing))).toEqual({ user });
  });

  it('refuses to decode an envelope of another type', () => {
    const outgoing = identityEvents.userBlocked.event({ aggregateId: user.id, data: { user } });
    expect(() => identityEvents.userCreated.decode(envelope(outgoing))).toThrow('expected a identity.user.created event');
  });

  it('declares each type once, all on identity topic', () => {
    const definitions = Object.values(identityEvents);
    expect(new Set(definitions.map((definition) => definition.type)).size).toBe(definitions.length);
    expect(new Set(definitions.map((definition) => definition.topic))).toEqual(new Set([IDENTITY_TOPIC]));
  });
});
