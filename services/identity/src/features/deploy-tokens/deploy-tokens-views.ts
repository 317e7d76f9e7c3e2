import { deployTokenUsername, type DeployToken } from './deploy-token.entity.ts';

/** GitLab's `DeployToken` entity; the token itself only at creation. */
export function deployTokenView(token: DeployToken, now: Date = new Date()) {
  return {
    id: token.id,
    name: token.name,
    username: deployTokenUsername(token),
    expires_at: token.expiresAt,
    scopes: token.scopes,
    revoked: token.revoked,
    expired: token.expiresAt != null && token.expiresAt <= now,
  };
}
