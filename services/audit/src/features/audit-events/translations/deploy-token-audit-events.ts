import { identityEvents } from '@platform/identity-client';
import { onEvent } from '@platform/events';
import type { DeployTokenCreated } from '@platform/proto/identity/v1/events';
import { auditEvent, type AuditTranslation } from './translation-helpers.ts';

/** The token's scopes as GitLab's message prints them: a Ruby array of symbols. */
const rubyScopes = (scopes: string[]) => `[${scopes.map((scope) => `:${scope}`).join(', ')}]`;

/**
 * GitLab's audit event of a deploy token created or destroyed, on its project or group:
 * `Created project deploy token with name: ci with token_id: 3 with scopes: [:read_repository].`
 */
function deployTokenEvent(eventName: string, verb: string) {
  return (data: DeployTokenCreated, event: Parameters<typeof auditEvent>[0]) => {
    const token = data.token!;
    const owner = data.owner!;
    const kind = owner.projectId ? 'project' : 'group';
    return auditEvent(event, {
      entity: {
        type: owner.projectId ? 'Project' : 'Group',
        id: owner.projectId || owner.groupId,
        path: owner.fullPath,
      },
      eventName,
      target: { id: token.id, type: 'DeployToken', details: token.name },
      action: {
        custom_message: `${verb} ${kind} deploy token with name: ${token.name} with token_id: ${token.id} with scopes: ${rubyScopes(token.scopes)}.`,
      },
    });
  };
}

/** Audit events of project and group deploy tokens: created and destroyed (deletion ends a token). */
export const deployTokenAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.deployTokenCreated, deployTokenEvent('deploy_token_created', 'Created')),
  onEvent(identityEvents.deployTokenDestroyed, deployTokenEvent('deploy_token_destroyed', 'Destroyed')),
];
