/**
 * GitLab's access levels (`Gitlab::Access`), the numbers its API takes and shows. A module of its
 * own, exported as `@platform/identity-client/access-level` too, for processes that must start
 * fast without the gRPC client (review's pre-receive hook).
 */
export const ACCESS_LEVEL = {
  NO_ACCESS: 0,
  MINIMAL_ACCESS: 5,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
  /** Protected branches' and tags' "Admins" entry: instance administrators only. */
  ADMIN: 60,
} as const;
