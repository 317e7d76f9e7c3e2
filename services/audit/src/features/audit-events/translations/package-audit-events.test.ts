import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import { packagesEvents } from '@platform/packages-client';
import { auditEventFor } from '../audit-event-translation.ts';

const developer = { id: 4, username: 'dev', name: 'Dev', ip: '10.0.0.4' };
const data = { projectId: 7, packageId: 12, name: '@acme/kit', version: '1.2.0', packageType: 'npm', projectPath: 'acme/kit' };

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-22T10:00:00.000Z', aggregateId: '7', actor: developer, traceContext: {}, ...event };
}

describe('audit events of package events', () => {
  it("records a publication and a deletion as the project's audit events", () => {
    const published = auditEventFor(envelope(packagesEvents.packagePublished.event({ aggregateId: 7, data })));
    expect(published).toMatchObject({
      authorId: 4,
      entityType: 'Project',
      entityId: 7,
      eventName: 'package_published',
      details: {
        custom_message: 'Published npm package @acme/kit 1.2.0',
        target_id: 12,
        target_type: 'Packages::Package',
        target_details: '@acme/kit',
        entity_path: 'acme/kit',
        author_name: 'Dev',
        ip_address: '10.0.0.4',
      },
    });
    const deleted = auditEventFor(envelope(packagesEvents.packageDeleted.event({ aggregateId: 7, data })));
    expect(deleted).toMatchObject({ eventName: 'package_deleted', details: { custom_message: 'Deleted npm package @acme/kit 1.2.0' } });
  });

  it('records pushed and deleted container image tags; a push the registry reported has the system as author', () => {
    const tag = { projectId: 7, repositoryId: 3, repositoryPath: 'acme/kit/web', tag: 'v1', digest: 'sha256:abc', projectPath: 'acme/kit' };
    const pushed = auditEventFor({ ...envelope(packagesEvents.containerTagPushed.event({ aggregateId: 7, data: tag })), actor: null });
    expect(pushed).toMatchObject({
      entityType: 'Project',
      entityId: 7,
      eventName: 'container_repository_tag_pushed',
      details: {
        custom_message: 'Pushed container image tag acme/kit/web:v1 (sha256:abc)',
        target_id: 3,
        target_type: 'ContainerRepository',
        target_details: 'acme/kit/web:v1',
      },
    });
    const deleted = auditEventFor(envelope(packagesEvents.containerTagDeleted.event({ aggregateId: 7, data: tag })));
    expect(deleted).toMatchObject({
      authorId: 4,
      eventName: 'container_repository_tag_deleted',
      details: { custom_message: 'Deleted container image tag acme/kit/web:v1' },
    });
  });
});
