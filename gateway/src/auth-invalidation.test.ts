import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import { PersonalAccessTokenRevoked } from '@platform/proto/identity/v1/events';
import { affectedUserIds } from './auth-invalidation.ts';

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
    const data = PersonalAccessTokenRevoked.toJSON({ tokenId: 31, userId: 7 });
    expect(affectedUserIds(envelopeOf('identity.personal_access_token.revoked', 7, data))).toEqual([7]);
  });
});
