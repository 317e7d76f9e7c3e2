import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { reviewEvents } from '@platform/review-client';
import { auditEventFor } from '../audit-event-translation.ts';

const admin = { id: 1, username: 'root', name: 'Administrator', ip: '10.0.0.1' };

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-24T10:00:00.000Z', aggregateId: '7', actor: admin, traceContext: {}, ...event };
}

describe('audit events of personal access tokens', () => {
  const token = { tokenId: 12, userId: 7, username: 'grace', tokenName: 'ci' };

  it("records issuing, rotating and revoking as the owner's audit events", () => {
    const created = auditEventFor(
      envelope(
        identityEvents.personalAccessTokenCreated.event({
          aggregateId: 7,
          data: { ...token, scopes: ['api', 'read_user'], expiresAt: '2027-01-01', rotatedFromId: 0 },
        }),
      ),
    );
    expect(created).toMatchObject({
      authorId: 1,
      entityType: 'User',
      entityId: 7,
      eventName: 'personal_access_token_created',
      details: {
        custom_message: 'Created personal access token with id 12 and scopes api, read_user expiring on 2027-01-01',
        target_id: 12,
        target_type: 'PersonalAccessToken',
        target_details: 'ci',
        entity_path: 'grace',
        author_name: 'Administrator',
        ip_address: '10.0.0.1',
      },
    });
    const rotated = auditEventFor(
      envelope(
        identityEvents.personalAccessTokenCreated.event({
          aggregateId: 7,
          data: { ...token, tokenId: 13, scopes: ['api'], expiresAt: '', rotatedFromId: 12 },
        }),
      ),
    );
    expect(rotated).toMatchObject({
      eventName: 'personal_access_token_rotated',
      details: { custom_message: 'Rotated personal access token with id 12 to id 13' },
    });
    const revoked = auditEventFor(envelope(identityEvents.personalAccessTokenRevoked.event({ aggregateId: 7, data: token })));
    expect(revoked).toMatchObject({
      eventName: 'personal_access_token_revoked',
      entityId: 7,
      details: { custom_message: 'Revoked personal access token with id 12' },
    });
  });
});

describe('audit events of protected branches', () => {
  const protection = {
    projectId: 7,
    projectPath: 'acme/app',
    protectedBranchId: 3,
    name: 'release/*',
    pushAccessLevels: [40],
    mergeAccessLevels: [30, 40],
    unprotectAccessLevels: [40],
    allowForcePush: false,
    codeOwnerApprovalRequired: false,
  };

  it("records protecting, changing and unprotecting a branch as the project's audit events", () => {
    const created = auditEventFor(envelope(reviewEvents.protectedBranchCreated.event({ aggregateId: 7, data: protection })));
    expect(created).toMatchObject({
      entityType: 'Project',
      entityId: 7,
      eventName: 'protected_branch_created',
      details: {
        add: 'protected_branch',
        custom_message:
          'Protected branch release/*: Maintainers allowed to push, Developers + Maintainers, Maintainers allowed to merge, Maintainers allowed to unprotect, force push not allowed',
        target_id: 3,
        target_type: 'ProtectedBranch',
        target_details: 'release/*',
        entity_path: 'acme/app',
      },
    });
    const updated = auditEventFor(
      envelope(
        reviewEvents.protectedBranchUpdated.event({ aggregateId: 7, data: { ...protection, pushAccessLevels: [0], allowForcePush: true } }),
      ),
    );
    expect(updated?.details.custom_message).toBe(
      'Changed protected branch release/*: No one allowed to push, Developers + Maintainers, Maintainers allowed to merge, Maintainers allowed to unprotect, force push allowed',
    );
    const removed = auditEventFor(
      envelope(reviewEvents.protectedBranchDeleted.event({ aggregateId: 7, data: { ...protection, projectPath: '' } })),
    );
    expect(removed).toMatchObject({ eventName: 'protected_branch_removed', details: { remove: 'protected_branch', entity_path: '7' } });
  });
});
