import {
  FeatureFlag,
  FeatureFlagLegacyScope,
  FeatureFlagScope,
  FeatureFlagsClient,
  FeatureFlagStrategy,
  FeatureFlagUserList,
} from './feature-flag.entity.ts';

export const featureFlagsEntities = [
  FeatureFlag,
  FeatureFlagStrategy,
  FeatureFlagScope,
  FeatureFlagLegacyScope,
  FeatureFlagUserList,
  FeatureFlagsClient,
];
