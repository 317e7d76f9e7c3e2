import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { deliveryEvents } from '@platform/delivery-client';
import type { EventEnvelope, OutgoingEvent } from '@platform/events';
import { projectChangedBy } from './unleash-client-events.ts';

const envelopeOf = (event: OutgoingEvent): EventEnvelope => ({
  id: randomUUID(),
  type: event.type,
  occurredAt: new Date().toISOString(),
  aggregateId: String(event.aggregateId),
  actor: null,
  data: event.data,
  traceContext: {},
});

const flag = {
  projectId: 7,
  projectPath: 'acme/app',
  featureFlagId: 3,
  name: 'checkout',
  active: true,
  version: 'new_version_flag',
  previousName: '',
  strategies: [],
  description: '',
};

describe('the events that change what Unleash clients are answered', () => {
  it('name the project for flag, user list and instance id changes', () => {
    const events = [
      deliveryEvents.featureFlagCreated.event({ aggregateId: 7, data: flag }),
      deliveryEvents.featureFlagUpdated.event({ aggregateId: 7, data: flag }),
      deliveryEvents.featureFlagToggled.event({ aggregateId: 7, data: flag }),
      deliveryEvents.featureFlagDeleted.event({ aggregateId: 7, data: flag }),
      deliveryEvents.featureFlagUserListUpdated.event({
        aggregateId: 7,
        data: { projectId: 7, projectPath: 'acme/app', userListId: 2, iid: 1, name: 'beta' },
      }),
      deliveryEvents.featureFlagsClientTokenReset.event({ aggregateId: 7, data: { projectId: 7, projectPath: 'acme/app' } }),
    ];
    expect(events.map((event) => projectChangedBy(envelopeOf(event)))).toEqual([7, 7, 7, 7, 7, 7]);
  });

  it('leave environments and deployments out', () => {
    const environment = deliveryEvents.environmentCreated.event({
      aggregateId: 7,
      data: {
        projectId: 7,
        projectPath: 'acme/app',
        environmentId: 1,
        name: 'production',
        state: 'available',
        tier: 'production',
        externalUrl: '',
      },
    });
    expect(projectChangedBy(envelopeOf(environment))).toBeUndefined();
  });
});
