import { deliveryEvents } from '@platform/delivery-client';
import { onEvent } from '@platform/events';
import { auditEvent, type AuditTranslation } from './translation-helpers.ts';

/** GitLab's target type of feature flags. */
const FEATURE_FLAG = 'Operations::FeatureFlag';

const project = (data: { projectId: number; projectPath: string }) => ({
  type: 'Project' as const,
  id: data.projectId,
  path: data.projectPath,
});

/** Audit events of a project's feature flags and of its Unleash instance id: who switched what on, for whom. */
export const deliveryAuditEvents: AuditTranslation[] = [
  onEvent(deliveryEvents.featureFlagCreated, (data, event) =>
    auditEvent(event, {
      entity: project(data),
      eventName: 'feature_flag_created',
      target: { id: data.featureFlagId, type: FEATURE_FLAG, details: data.name },
      action: { custom_message: `Created feature flag ${data.name}` },
    }),
  ),
  onEvent(deliveryEvents.featureFlagUpdated, (data, event) =>
    auditEvent(event, {
      entity: project(data),
      eventName: 'feature_flag_updated',
      target: { id: data.featureFlagId, type: FEATURE_FLAG, details: data.name },
      action: data.previousName
        ? { change: 'name', from: data.previousName, to: data.name }
        : { custom_message: `Updated feature flag ${data.name}: strategies ${data.strategies.join(', ') || 'none'}` },
    }),
  ),
  onEvent(deliveryEvents.featureFlagToggled, (data, event) =>
    auditEvent(event, {
      entity: project(data),
      eventName: 'feature_flag_updated',
      target: { id: data.featureFlagId, type: FEATURE_FLAG, details: data.name },
      action: { change: 'active', from: String(!data.active), to: String(data.active) },
    }),
  ),
  onEvent(deliveryEvents.featureFlagDeleted, (data, event) =>
    auditEvent(event, {
      entity: project(data),
      eventName: 'feature_flag_deleted',
      target: { id: data.featureFlagId, type: FEATURE_FLAG, details: data.name },
      action: { custom_message: `Deleted feature flag ${data.name}` },
    }),
  ),
  onEvent(deliveryEvents.featureFlagsClientTokenReset, (data, event) =>
    auditEvent(event, {
      entity: project(data),
      eventName: 'feature_flags_client_token_reset',
      target: { id: data.projectId, type: 'Operations::FeatureFlagsClient', details: data.projectPath },
      action: { custom_message: 'Reset the Unleash instance id' },
    }),
  ),
];
