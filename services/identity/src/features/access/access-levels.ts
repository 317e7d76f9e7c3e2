import { ACCESS_LEVEL } from '@platform/identity-client';

/** The levels a group membership may hold; owner exists for groups (and personal project owners) only. */
export const GROUP_ACCESS_LEVELS: readonly number[] = [
  ACCESS_LEVEL.GUEST,
  ACCESS_LEVEL.REPORTER,
  ACCESS_LEVEL.DEVELOPER,
  ACCESS_LEVEL.MAINTAINER,
  ACCESS_LEVEL.OWNER,
];
/** The levels a project membership may hold. */
export const PROJECT_ACCESS_LEVELS: readonly number[] = [
  ACCESS_LEVEL.GUEST,
  ACCESS_LEVEL.REPORTER,
  ACCESS_LEVEL.DEVELOPER,
  ACCESS_LEVEL.MAINTAINER,
];
