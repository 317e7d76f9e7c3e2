import { identityEvents } from '@platform/identity-client';
import { onEvent } from '@platform/events';
import { auditEvent, type AuditTranslation } from './translation-helpers.ts';

const owner = (data: { userId: number; username: string }) => ({ type: 'User' as const, id: data.userId, path: data.username });
const token = (data: { tokenId: number; tokenName: string }) => ({
  id: data.tokenId,
  type: 'PersonalAccessToken',
  details: data.tokenName,
});

/** Audit events of personal access tokens issued, rotated and revoked: their owner's (User) audit events. */
export const tokenAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.personalAccessTokenCreated, (data, event) => {
    const scopes = data.scopes.join(', ');
    const expires = data.expiresAt ? ` expiring on ${data.expiresAt}` : '';
    return auditEvent(event, {
      entity: owner(data),
      eventName: data.rotatedFromId ? 'personal_access_token_rotated' : 'personal_access_token_created',
      target: token(data),
      action: {
        custom_message: data.rotatedFromId
          ? `Rotated personal access token with id ${data.rotatedFromId} to id ${data.tokenId}${expires}`
          : `Created personal access token with id ${data.tokenId} and scopes ${scopes}${expires}`,
      },
    });
  }),
  onEvent(identityEvents.personalAccessTokenRevoked, (data, event) =>
    auditEvent(event, {
      entity: owner(data),
      eventName: 'personal_access_token_revoked',
      target: token(data),
      action: { custom_message: `Revoked personal access token with id ${data.tokenId}` },
    }),
  ),
];
