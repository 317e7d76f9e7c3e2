import type { Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';
import type { UserStore } from '../users/users-store.ts';
import { avatarUploadsRoutes } from './uploads-router.ts';

/** Uploads served where GitLab serves them, outside the REST API: avatars at their `avatar_url`. */
export function createUploadsFeature(deps: {
  orm: Orm;
  avatars: AvatarStorage;
  users: UserStore;
  access: AccessPolicy;
  logger: Logger;
}): Feature {
  return { streamingRoutes: [avatarUploadsRoutes(deps)] };
}
