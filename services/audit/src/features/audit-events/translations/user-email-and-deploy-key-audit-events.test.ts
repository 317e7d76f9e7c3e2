import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { auditEventFor } from '../audit-event-translation.ts';

const maintainer = { id: 5, username: 'maria', name: 'Maria', ip: '10.0.0.5' };

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-24T10:00:00.000Z', aggregateId: '7', actor: maintainer, traceContext: {}, ...event };
}

describe('audit events of secondary emails', () => {
  const email = { id: 12, email: 'grace@work.example', confirmedAt: '' };

  it("records an address added and removed as its owner's audit events, by whoever acted", () => {
    const added = auditEventFor(
      envelope(identityEvents.userEmailAdded.event({ aggregateId: 7, data: { userId: 7, username: 'grace', email } })),
    );
    expect(added).toMatchObject({
      authorId: 5,
      entityType: 'User',
      entityId: 7,
      eventName: 'email_created',
      details: {
        add: 'email',
        custom_message: 'Email created',
        author_name: 'Maria',
        target_id: 12,
        target_type: 'Email',
        target_details: 'grace@work.example',
        entity_path: 'grace',
        ip_address: '10.0.0.5',
      },
    });
    const removed = auditEventFor(
      envelope(identityEvents.userEmailRemoved.event({ aggregateId: 7, data: { userId: 7, username: 'grace', email } })),
    );
    expect(removed).toMatchObject({
      entityType: 'User',
      entityId: 7,
      eventName: 'email_destroyed',
      details: { remove: 'email', custom_message: 'Email destroyed', target_type: 'Email', target_id: 12 },
    });
  });
});

describe('audit events of deploy keys', () => {
  const key = { id: 30, title: 'ci', fingerprintSha256: 'abc', public: false };
  const project = { id: 9, pathWithNamespace: 'acme/app' };

  it("records a key added to or enabled on a project, and removed from it, as the project's audit events", () => {
    const added = auditEventFor(envelope(identityEvents.deployKeyAdded.event({ aggregateId: 30, data: { key, project, canPush: true } })));
    expect(added).toMatchObject({
      authorId: 5,
      entityType: 'Project',
      entityId: 9,
      eventName: 'deploy_key_added',
      details: {
        add: 'deploy_key',
        custom_message: 'Added deploy key',
        target_id: 30,
        target_type: 'DeployKey',
        target_details: 'ci',
        entity_path: 'acme/app',
      },
    });
    const removed = auditEventFor(
      envelope(identityEvents.deployKeyRemoved.event({ aggregateId: 30, data: { key, project, keyDeleted: true } })),
    );
    expect(removed).toMatchObject({
      entityType: 'Project',
      entityId: 9,
      eventName: 'deploy_key_removed',
      details: { remove: 'deploy_key', custom_message: 'Removed deploy key', target_details: 'ci' },
    });
  });

  it("records an instance key added enabled nowhere as the administrator's", () => {
    const added = auditEventFor(
      envelope(
        identityEvents.deployKeyAdded.event({
          aggregateId: 31,
          data: { key: { ...key, id: 31, public: true }, project: undefined, canPush: false },
        }),
      ),
    );
    expect(added).toMatchObject({
      entityType: 'User',
      entityId: 5,
      eventName: 'deploy_key_added',
      details: { add: 'deploy_key', target_id: 31, target_type: 'DeployKey', entity_path: 'maria' },
    });
  });
});
