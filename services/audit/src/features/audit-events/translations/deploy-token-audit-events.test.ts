import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { auditEventFor } from '../audit-event-translation.ts';

const maintainer = { id: 4, username: 'ada', name: 'Ada', ip: '10.0.0.2' };

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-27T10:00:00.000Z', aggregateId: '3', actor: maintainer, traceContext: {}, ...event };
}

describe('audit events of deploy tokens', () => {
  const token = { id: 3, name: 'ci', username: 'gitlab+deploy-token-3', scopes: ['read_repository', 'read_registry'], expiresAt: '' };

  it("records a project token's creation and destruction as the project's, with GitLab's names and messages", () => {
    const owner = { projectId: 9, groupId: 0, fullPath: 'fleet/engine' };
    const created = auditEventFor(envelope(identityEvents.deployTokenCreated.event({ aggregateId: 3, data: { token, owner } })));
    expect(created).toMatchObject({
      authorId: 4,
      entityType: 'Project',
      entityId: 9,
      eventName: 'deploy_token_created',
      details: {
        custom_message: 'Created project deploy token with name: ci with token_id: 3 with scopes: [:read_repository, :read_registry].',
        target_id: 3,
        target_type: 'DeployToken',
        target_details: 'ci',
        entity_path: 'fleet/engine',
        author_name: 'Ada',
        ip_address: '10.0.0.2',
      },
    });
    const destroyed = auditEventFor(envelope(identityEvents.deployTokenDestroyed.event({ aggregateId: 3, data: { token, owner } })));
    expect(destroyed).toMatchObject({
      eventName: 'deploy_token_destroyed',
      entityId: 9,
      details: {
        custom_message: 'Destroyed project deploy token with name: ci with token_id: 3 with scopes: [:read_repository, :read_registry].',
      },
    });
  });

  it("records a group token's as the group's", () => {
    const owner = { projectId: 0, groupId: 5, fullPath: 'fleet' };
    const created = auditEventFor(envelope(identityEvents.deployTokenCreated.event({ aggregateId: 3, data: { token, owner } })));
    expect(created).toMatchObject({
      entityType: 'Group',
      entityId: 5,
      details: {
        custom_message: 'Created group deploy token with name: ci with token_id: 3 with scopes: [:read_repository, :read_registry].',
        entity_path: 'fleet',
      },
    });
  });
});
