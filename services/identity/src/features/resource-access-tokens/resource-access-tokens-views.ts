import { personalAccessTokenView } from '../tokens/tokens-views.ts';
import type { ResourceAccessToken } from './resource-access-tokens-service.ts';

/** GitLab's `ResourceAccessToken`: a personal access token with its bot's role and the resource. */
export function resourceAccessTokenView({ token, accessLevel, resourceType, resourceId }: ResourceAccessToken) {
  return { ...personalAccessTokenView(token), access_level: accessLevel, resource_type: resourceType, resource_id: resourceId };
}
