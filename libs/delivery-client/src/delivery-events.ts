/**
 * Every event the delivery service publishes, declared once: it records them and consumers
 * (audit, review, delivery's own Unleash client answers) decode them through these definitions.
 * Their data are the messages of `proto/delivery/v1/events.proto`.
 */
import { defineEvent } from '@platform/events';
import {
  DeploymentChanged,
  EnvironmentChanged,
  FeatureFlagChanged,
  FeatureFlagsClientTokenReset,
  FeatureFlagUserListChanged,
  PipelineChanged,
} from '@platform/proto/delivery/v1/events';

/** The delivery service's events travel on one topic, keyed by the project id. */
export const DELIVERY_TOPIC = 'delivery.events';

const options = { topic: DELIVERY_TOPIC };

export const deliveryEvents = {
  environmentCreated: defineEvent('delivery.environment.created', EnvironmentChanged, options),
  environmentUpdated: defineEvent('delivery.environment.updated', EnvironmentChanged, options),
  environmentStopped: defineEvent('delivery.environment.stopped', EnvironmentChanged, options),
  environmentDeleted: defineEvent('delivery.environment.deleted', EnvironmentChanged, options),
  deploymentCreated: defineEvent('delivery.deployment.created', DeploymentChanged, options),
  deploymentUpdated: defineEvent('delivery.deployment.updated', DeploymentChanged, options),
  featureFlagCreated: defineEvent('delivery.feature_flag.created', FeatureFlagChanged, options),
  featureFlagUpdated: defineEvent('delivery.feature_flag.updated', FeatureFlagChanged, options),
  featureFlagToggled: defineEvent('delivery.feature_flag.toggled', FeatureFlagChanged, options),
  featureFlagDeleted: defineEvent('delivery.feature_flag.deleted', FeatureFlagChanged, options),
  featureFlagsClientTokenReset: defineEvent('delivery.feature_flags_client.token_reset', FeatureFlagsClientTokenReset, options),
  featureFlagUserListUpdated: defineEvent('delivery.feature_flag_user_list.updated', FeatureFlagUserListChanged, options),
  /** An external CI's first status for a sha and ref made a pipeline (review follows merge requests' head pipelines; pipeline webhooks may). */
  pipelineCreated: defineEvent('delivery.pipeline.created', PipelineChanged, options),
  /** A status changed a pipeline's status, coverage or times. */
  pipelineUpdated: defineEvent('delivery.pipeline.updated', PipelineChanged, options),
};
