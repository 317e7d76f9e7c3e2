import type { PersonalAccessToken } from './personal-access-token.entity.ts';

export function personalAccessTokenView(token: PersonalAccessToken, today: string = new Date().toISOString().slice(0, 10)) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt,
    description: token.description ?? null,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt,
    active: !token.revoked && (token.expiresAt == null || token.expiresAt > today),
    expires_at: token.expiresAt,
  };
}

/** GitLab's impersonation token: a personal access token that says it impersonates. */
export function impersonationTokenView(token: PersonalAccessToken) {
  return { ...personalAccessTokenView(token), impersonation: token.impersonation };
}
