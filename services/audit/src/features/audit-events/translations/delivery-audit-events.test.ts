import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { deliveryEvents } from '@platform/delivery-client';
import type { EventEnvelope } from '@platform/events';
import { auditEventFor } from '../audit-event-translation.ts';

const developer = { id: 4, username: 'dev', name: 'Dev', ip: '10.0.0.4' };
const flag = {
  projectId: 7,
  projectPath: 'acme/shop',
  featureFlagId: 3,
  name: 'new_checkout',
  active: true,
  version: 'new_version_flag',
  previousName: '',
  strategies: ['gradualRolloutUserId(production)'],
  description: '',
};

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-24T10:00:00.000Z', aggregateId: '7', actor: developer, traceContext: {}, ...event };
}

describe('audit events of feature flag events', () => {
  it("records a flag's creation, changes, toggling and deletion as the project's audit events", () => {
    const created = auditEventFor(envelope(deliveryEvents.featureFlagCreated.event({ aggregateId: 7, data: flag })));
    expect(created).toMatchObject({
      authorId: 4,
      entityType: 'Project',
      entityId: 7,
      eventName: 'feature_flag_created',
      details: {
        custom_message: 'Created feature flag new_checkout',
        target_id: 3,
        target_type: 'Operations::FeatureFlag',
        target_details: 'new_checkout',
        entity_path: 'acme/shop',
        ip_address: '10.0.0.4',
      },
    });
    const toggled = auditEventFor(envelope(deliveryEvents.featureFlagToggled.event({ aggregateId: 7, data: { ...flag, active: false } })));
    expect(toggled).toMatchObject({ eventName: 'feature_flag_updated', details: { change: 'active', from: 'true', to: 'false' } });
    const renamed = auditEventFor(
      envelope(
        deliveryEvents.featureFlagUpdated.event({ aggregateId: 7, data: { ...flag, name: 'checkout', previousName: 'new_checkout' } }),
      ),
    );
    expect(renamed).toMatchObject({ details: { change: 'name', from: 'new_checkout', to: 'checkout' } });
    const updated = auditEventFor(envelope(deliveryEvents.featureFlagUpdated.event({ aggregateId: 7, data: flag })));
    expect(updated?.details.custom_message).toBe('Updated feature flag new_checkout: strategies gradualRolloutUserId(production)');
    const deleted = auditEventFor(envelope(deliveryEvents.featureFlagDeleted.event({ aggregateId: 7, data: flag })));
    expect(deleted).toMatchObject({ eventName: 'feature_flag_deleted', details: { custom_message: 'Deleted feature flag new_checkout' } });
  });

  it('records a reset of the Unleash instance id', () => {
    const reset = auditEventFor(
      envelope(deliveryEvents.featureFlagsClientTokenReset.event({ aggregateId: 7, data: { projectId: 7, projectPath: 'acme/shop' } })),
    );
    expect(reset).toMatchObject({
      eventName: 'feature_flags_client_token_reset',
      entityId: 7,
      details: { target_type: 'Operations::FeatureFlagsClient' },
    });
  });
});
